"""Records of arrays passed by reference between numba kernels.

The event loops keep their state as named tuples of named tuples of arrays (``Engine.units.stage``,
``Heap.time``...). Numba passes a tuple by value: a call of a kernel that takes the SSD engine's
~160 arrays passes about 1,100 machine words, and a helper inlined at numba level binds a copy
of them at each call site, which LLVM then has to optimise away; most of the drive engine's
compile time went there (issue 27).

:func:`ref` stores a record once, in its kernel's stack frame, and hands out a pointer to it:
a :class:`RecordRef`. Attribute access reads through the pointer (``e.units`` is a reference
to the ``Units`` record inside, ``e.units.stage`` loads that one array's descriptor), so the
code that uses a record reads the same whichever way it holds it, and a call passes one word.
A reference lives as long as the kernel that made it: pass it down, never return it or keep it.
The records are named tuples, so nothing is ever stored through a reference; the arrays'
elements are written as usual.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.core.datamodel import models, register_default
from numba.core.imputils import impl_ret_borrowed, lower_getattr_generic
from numba.core.typing.templates import AttributeTemplate, infer_getattr
from numba.extending import intrinsic


class RecordRef(types.Type):
    """The numba type of a reference to a named tuple of type ``record``."""

    def __init__(self, record: types.BaseNamedTuple):
        self.record = record
        super().__init__(name=f"ref({record})")  # the whole type: names are mangled into symbols

    @property
    def key(self):
        return self.record


def _field_type(record, attr):
    t = record.types[record.fields.index(attr)]
    return RecordRef(t) if isinstance(t, types.BaseNamedTuple) else t


@register_default(RecordRef)
class _RecordRefModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, dmm.lookup(fe_type.record).get_value_type().as_pointer())


@infer_getattr
class _RecordRefAttributes(AttributeTemplate):
    key = RecordRef

    def generic_resolve(self, ref, attr):
        if attr in ref.record.fields:
            return _field_type(ref.record, attr)
        return None


@lower_getattr_generic(RecordRef)
def _getattr(context, builder, ref, value, attr):
    ptr = cgutils.gep_inbounds(builder, value, 0, ref.record.fields.index(attr))
    out = _field_type(ref.record, attr)
    if isinstance(out, RecordRef):
        return ptr
    return impl_ret_borrowed(context, builder, out, builder.load(ptr))


@intrinsic
def ref(typingctx, record):
    """A reference to ``record`` (a named tuple), stored in the calling kernel's frame."""
    if not isinstance(record, types.BaseNamedTuple):
        return None

    def codegen(context, builder, sig, args):
        slot = cgutils.alloca_once(builder, args[0].type)
        builder.store(args[0], slot)
        return slot

    return RecordRef(record)(record), codegen
