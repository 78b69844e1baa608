"""cuarray's version, read by pyproject.toml and `cuarray.__version__`."""
__version__ = "0.1.0.dev0"
