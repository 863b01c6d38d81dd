"""Twenty-first reading (t21_0001), lesson 00: the gloo/memcpy table's ratio follows from its printed times."""

from utils.lessons.start_here import loopback
from utils.lessons.start_here.bandwidth import CopyPoint

KIB, MIB = 1024, 1024 * 1024


def _rows(pairs):
    copies = [CopyPoint("host memcpy", size, mem, None) for size, mem, _ in pairs]
    messages = [CopyPoint(loopback.PATH, size, gloo, None) for size, _, gloo in pairs]
    return loopback.compare_table(copies, messages).rows


def test_the_readers_run_divides_from_the_printed_times():
    # the times the reader saw (c21's memcpy µs, c26's message list): 89.0x came from a 2-decimal 0.23 GB/s
    rows = _rows([(64 * KIB, 3.2013e-6, 290.93e-6), (256 * KIB, 7.8712e-6, 378.41e-6),
                  (4 * MIB, 168.93e-6, 2564.81e-6)])
    assert rows == [("64 KiB", "3.20", "290.9", "90.9x"), ("256 KiB", "7.87", "378.4", "48.1x"),
                    ("4 MiB", "168.9", "2,564.8", "15.2x")]


def test_every_row_is_its_printed_gloo_time_over_its_printed_memcpy_time():
    for size, mem, gloo in [(16 * MIB, 2261.94e-6, 9952.64e-6), (64 * MIB, 9581.06e-6, 21598.6e-6),
                            (KIB, 0.8712e-6, 167.44e-6)]:
        (row,) = _rows([(size, mem, gloo)])
        over, under = float(row[2].replace(",", "")), float(row[1].replace(",", ""))
        assert row[3] == f"{round(over / under + 1e-9, 1):.1f}x"


def test_the_header_names_the_division():
    one = [CopyPoint("host memcpy", KIB, 1e-6, None)]
    table = loopback.compare_table(one, [CopyPoint(loopback.PATH, KIB, 1e-4, None)])
    assert table.columns[-1] == "gloo slower by (gloo µs / memcpy µs)" and "µs" in table.columns[1]


def test_both_size_axes_say_they_are_log_scale():
    from utils import machine
    from utils.lessons.start_here import bandwidth

    sizes = [4, 4 * KIB, 64 * KIB, MIB]
    messages = [CopyPoint(loopback.PATH, n, 100e-6 + n / 4e9, None) for n in sizes]
    link = machine.link_fit(loopback.PATH, sizes, [m.seconds for m in messages])
    (msgs,) = bandwidth.plot_messages(messages, link, True).axes
    assert msgs.get_xlabel() == "bytes sent (log scale)" and msgs.get_xscale() == "log"
    copies = [CopyPoint("host memcpy", n, n / 30e9, None) for n in sizes[1:]]
    (axis,) = bandwidth.plot_copies(copies, simulated=True).axes
    assert axis.get_xlabel() == "bytes copied (log scale)" and axis.get_xscale() == "log"
