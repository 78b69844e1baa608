"""The only layer that talks to cuda.core and cuda.bindings."""
