"""Lesson 09, the thirty-second reading (t32_09 #4): row B2 prices the decode's all-reduces from alpha and beta as
it prints them, and names the message size, so the reader's sum finds the price. Fabricated figures."""

from utils.lessons.articles_checked import decode_loss


def test_a_price_works_from_alpha_and_beta_as_printed():
    # 131.4 µs printed 131; 8 x (131 + 1,024 B / 2.36 GB/s) = 8 x 131.434 µs = 1.05 ms, not 1.06 from 131.5 µs
    assert decode_loss.link_text(131.4e-6, 2.3649e9, 2) == "alpha 131 µs, beta 2.36 GB/s"
    assert round(8 * decode_loss.printed_cost(131.4e-6, 2.3649e9, 2, 1024) * 1e3, 2) == 1.05
    # half up, as a reader rounds: 208.5 µs prints 209 and prices from 209
    assert decode_loss.link_text(208.5e-6, 2.1e9, 1) == "alpha 209 µs, beta 2.1 GB/s"
    assert abs(decode_loss.printed_cost(208.5e-6, 2.1e9, 1, 1024) - (209e-6 + 1024 / 2.1e9)) < 1e-12


def test_the_row_names_the_message_size():
    m = {"setups": {"decode": (4, 256)}, "results": {"allreduce_fit_beta": None, "link_alpha": None,
                                                        "link_beta": None, "decode_allreduce_share": None}}
    record = {"decode_seconds_per_token": {"one device": 1.13e-3, "tensor parallel": 6.84e-3},
              "alpha_s": 131.4e-6, "beta_bytes_per_s": 2.36e9}
    part = decode_loss.decode_priced(m, record)
    assert "its 8 all-reduces a token, each of 1,024 bytes (lesson 07's decode model" in part.text, part.text
    assert "(alpha 131 µs, beta 2.4 GB/s): 1.05 ms, 18%" in part.text
