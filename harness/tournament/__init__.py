"""Running jobs: the job model, its formats (one module each, :mod:`.formats`), the schedule,
execution (local pool or Dask), the results store and the standings. Publishing what is stored is
:mod:`harness.report`'s."""
