"""Reading 31's items for lessons 03 and 04 (t31_0304): unit tests on fabricated figures."""
from utils.lessons.compression.roofline import Reference


def test_int8_slower_than_compile_names_no_unmeasured_cause():
    """t31_0304 #1: the run does not time quantize, the int8 matmul and rescale apart, so the slower branch
    says so and never claims the steps 'take more than the bytes save'."""
    from utils.lessons.compression.quantruns import over_compile
    ref = Reference("memory-bound", 3.97, 0.5, 3.1, "bytes moved", "L3")
    slower = over_compile(0.98, 0.01, "beyond noise", ref)
    assert slower.startswith("quantizing costs time beyond compile's")
    assert "does not time its steps" in slower and "int8 matmul" in slower
    assert "bytes save" not in slower
    assert "adds no time beyond compile's" in over_compile(0.99, 0.05, "within noise", ref)
    assert over_compile(2.0, 0.02, "beyond noise", ref).startswith("quantizing gains over compile alone")
