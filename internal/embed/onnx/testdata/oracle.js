// The oracle for internal/embed/onnx: runs a model with onnxruntime-node and
// pools its last_hidden_state the sentence-transformers way (mean over the
// attention mask, L2 norm). Reads {"model": path, "inputs": [{"ids": [...],
// "types": [...], "mask": [...]}]} on stdin, one run per input; writes
// {"version": ..., "vectors": [[...], ...]} on stdout.
// NODE_PATH must name the node_modules holding onnxruntime-node.
'use strict';
const ort = require('onnxruntime-node');

async function main() {
  const req = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const opts = { intraOpNumThreads: 2, interOpNumThreads: 1 };
  const sess = await ort.InferenceSession.create(req.model, opts);
  const vectors = [];
  for (const x of req.inputs) {
    const n = x.ids.length;
    const t = (a) => new ort.Tensor('int64', BigInt64Array.from(a.map(BigInt)), [1, n]);
    const feeds = { input_ids: t(x.ids), attention_mask: t(x.mask) };
    if (sess.inputNames.includes('token_type_ids')) feeds.token_type_ids = t(x.types);
    const out = await sess.run(feeds);
    const h = out[sess.outputNames[0]];
    const dim = h.dims[2];
    const acc = new Float64Array(dim);
    let cnt = 0;
    for (let i = 0; i < n; i++) {
      if (x.mask[i] === 0) continue;
      cnt++;
      for (let d = 0; d < dim; d++) acc[d] += h.data[i * dim + d];
    }
    let norm = 0;
    for (let d = 0; d < dim; d++) { acc[d] /= Math.max(cnt, 1e-9); norm += acc[d] * acc[d]; }
    norm = Math.max(Math.sqrt(norm), 1e-12);
    vectors.push(Array.from(acc, (v) => v / norm));
  }
  process.stdout.write(JSON.stringify({ version: ort.env.versions ? ort.env.versions.common : '', vectors }));
}

main().catch((e) => { process.stderr.write(String(e && e.stack || e) + '\n'); process.exit(1); });
