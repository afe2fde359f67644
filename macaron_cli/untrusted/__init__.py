"""Everything inside an app folder is untrusted input: its code, its git metadata, its
macaron.json, its data. A model, a stranger's bundle or a mistake may have written any of it.

This package is that rule's home. Every host-side reader of an app goes through it:
- git.py: git on an app runs with a hardened environment (no config of the app's that runs
  commands: fsmonitor, hooks, filters, textconv, includes, submodules), and a nested
  repository below the app root is found and set aside (to macaron's home) before any git runs;
- data_paths.py: the data paths an app declares resolve inside its own data, never through
  a link or `..`;
- environment.py: the allow-listed environment any process running app code starts with.

What decides privacy and data (records, data_files, the run/test/digest argv, the privacy
level) is the template's, pinned where the app cannot write (pinned.py: the values and the
template they come from; apps.pinned keeps them in the registry); the walls every process that
runs app code shares are sandbox/walls.py's. It imports only config and below, so
git_plumbing, data_snapshots and apps (the layer above) can use it.
"""
