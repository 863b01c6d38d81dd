"""Lesson 01 (``notebooks/01_why_slow.ipynb``): why large models are slow. FLOPs, bytes, the roofline, MFU and
the profiler, each measured in the run and set beside its bound.

Modules: ``plan`` (every hardware decision), ``step`` (the small GPT's training step), ``flops`` (counting by
formula and with torch's counter, MFU), ``utilisation`` (MFU measured beside the peak), ``peak`` (the roof's two
ceilings as one object; ``utils.machine`` measures and names them), ``roofline`` (ops placed under the
ceilings), ``transfers`` (latency against bandwidth over the two workers' link; ``neighbours`` tests each size against its
neighbours' line), ``scaling`` (time and memory as
the model grows), ``algorithms`` (the same work done three ways; ``fused_ledger`` records its fused pairs for lesson 09), ``profile`` (torch.profiler on one step),
``hardware`` (the datasheet table and this machine's place in it), ``plotting`` (the lesson's figures) and
``report`` (the sentences and "How this was measured" tables printed from the run).
"""
