"""Give the int8 weights of an ONNX model's ``MatMulInteger`` nodes as uint8 (session 31).

Usage (``onnx`` is a tool here, not a dependency of the product: run it from any environment
that has ``onnx`` and ``numpy``)::

    python scripts/u8_weights_onnx.py IN.onnx OUT.onnx

Why: ``onnxruntime.quantization.quantize_dynamic(weight_type=QInt8)`` makes ``MatMulInteger``
nodes of uint8 activations times int8 weights. On x86 CPUs without VNNI (AVX2 only, e.g. AMD
EPYC before Zen 4) onnxruntime's kernel for uint8 x int8 sums pairs of products in 16 bits with
saturation, so the same model gives other logits there: on a sample of 61 fixture passages the
injection readers moved by 0.21 logits on average and up to 2.35 (a permission file scored 3.35
instead of 5.71, under its threshold of 5.22), and every figure calibrated on a VNNI machine was
off. uint8 x uint8 has no such shortcut on any CPU: its kernels are exact. The change is
exact too: every weight ``q`` becomes ``q + 128`` and its zero point ``z`` becomes ``z + 128``,
so ``(a - a_zp) * (q - z)`` is the same integer. Initialiser names are kept (``*_quantized``,
``*_zero_point``, ``*_scale``), so ``scripts/finetune_injection_minilm.py --dequantize`` reads the
result as it read the original. A weight or zero point that another kind of node also reads is
refused.
"""

from __future__ import annotations

import sys

import numpy as np
import onnx
from onnx import numpy_helper


def convert(src: str, dst: str) -> int:
    model = onnx.load(src)
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    readers: dict[str, set[str]] = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, set()).add(node.op_type)
    changed: set[str] = set()
    for node in graph.node:
        if node.op_type != "MatMulInteger":
            continue
        weight = node.input[1]
        zero = node.input[3] if len(node.input) > 3 else ""
        if weight not in inits or inits[weight].data_type != onnx.TensorProto.INT8:
            raise SystemExit(f"{node.name}: the weight is not an int8 initialiser")
        if not zero or zero not in inits:
            raise SystemExit(f"{node.name}: no zero-point initialiser for the weight")
        for name in (weight, zero):
            if readers[name] != {"MatMulInteger"}:
                raise SystemExit(f"{name} is also read by {sorted(readers[name])}")
            if name in changed:
                continue
            values = numpy_helper.to_array(inits[name]).astype(np.int16) + 128
            inits[name].CopyFrom(numpy_helper.from_array(values.astype(np.uint8), name))
            changed.add(name)
    onnx.checker.check_model(model)
    onnx.save(model, dst)
    return len(changed)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    print(f"{convert(sys.argv[1], sys.argv[2])} initialisers given as uint8 -> {sys.argv[2]}")
