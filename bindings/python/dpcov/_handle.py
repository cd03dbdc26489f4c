"""Base class of the objects that own a C handle (accumulators, generators, sketches)."""

from __future__ import annotations

from ctypes import byref, c_void_p


class Handle:
    """Owns one opaque C handle and frees it exactly once.

    Use as a context manager (``with GramAccumulator(3) as g: ...``) or call :meth:`close`; the
    handle is also freed when the object is garbage collected. After closing, every method passes
    NULL to the library, which refuses it with :class:`~dpcov.errors.NullPointerError` and its own
    message. A handle must not be used by two threads at once (the C contract).
    """

    _destroy = None  # the C destroy function, set by subclasses

    def __init__(self, pointer: c_void_p):
        """Take ownership of ``pointer``, a handle created by a C ``_create`` function."""
        self._ptr = pointer

    @property
    def _as_parameter_(self):
        """The raw handle for ctypes calls (NULL once closed)."""
        return self._ptr.value

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has freed the handle."""
        return not self._ptr

    def close(self) -> None:
        """Free the C handle; calling it again does nothing."""
        ptr = getattr(self, "_ptr", None)
        if ptr:
            type(self)._destroy(byref(ptr))

    def __enter__(self):
        """Return the handle itself for the ``with`` block."""
        return self

    def __exit__(self, exc_type, exc, tb):
        """Close the handle; exceptions propagate."""
        self.close()
        return False

    def __del__(self):
        """Free the handle if it is still open."""
        self.close()
