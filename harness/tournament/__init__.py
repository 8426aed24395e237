"""Jobs of many games: scheduling, execution (local pool or Dask), the results store, standings."""
