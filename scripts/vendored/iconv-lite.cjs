// Stands in for iconv-lite inside the raw-body bundle (scripts/build-vendored.mjs): raw-body
// asks it for a decoder only when given an `encoding`, which readRawBody never passes. Node's
// TextDecoder knows the WHATWG encodings; iconv-lite's tables (about 500 KB) stay out.
/* global module, TextDecoder */
'use strict';

/** A decoder of `encoding` with iconv-lite's write/end, or iconv-lite's error for an unknown one. */
function getDecoder(encoding) {
  let decoder;
  try {
    decoder = new TextDecoder(encoding);
  } catch {
    throw new Error(`Encoding not recognized: '${encoding}' (searched as: '${encoding}')`);
  }
  return {
    write: (chunk) => decoder.decode(chunk, { stream: true }),
    end: () => decoder.decode(),
  };
}

module.exports = { getDecoder };
