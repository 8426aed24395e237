"""Submissions from an LMS: Moodle's and Canvas's bulk downloads, every attempt with its time.

:mod:`~harness.intake.names` reads the LMS's file names and maps them to the roster's logins,
:mod:`~harness.intake.archive` reads a download (hostile input) safely,
:mod:`~harness.intake.attempts` keeps every attempt beside the submissions, and
:mod:`~harness.intake.importer` puts them together for ``harness import``.
"""
