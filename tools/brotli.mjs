// Writes `<file>.br` beside each file named on the command line: brotli at the highest
// quality, made with Node's built-in zlib (Python's standard library has no brotli, and
// Node is needed for npm anyway). tools/precompress.py runs it; a host serves the
// siblings as nginx's brotli_static does, and so does tools/serve.py.
//
//     node tools/brotli.mjs FILE...
import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

for (const path of process.argv.slice(2)) {
  const data = readFileSync(path);
  const packed = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  writeFileSync(`${path}.br`, packed);
}
