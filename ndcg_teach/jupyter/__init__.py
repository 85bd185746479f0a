"""Jupyter, set up for the course: the server extension and the command that enables it.

- ``server_extension``: keeps a saved lesson reopening cleanly (each explorer's picture is saved with it, and comes
  back live on a reload while its kernel runs); the wheel enables it in every Jupyter server of the environment
  (``etc/jupyter/jupyter_server_config.d/ndcg_teach.json``);
- ``setup``: ``python -m ndcg_teach.jupyter.setup`` writes what pip does not (that file after an editable install,
  and JupyterLab's settings for the course) and says what is set.

Both run inside the Jupyter server, not in a kernel, and import nothing else of the package.

May import: nothing of the package.
"""
