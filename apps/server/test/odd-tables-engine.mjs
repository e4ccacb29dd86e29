// Test hook for the explorer's API tests (loaded through TRACEMILL_TEST_ENGINE_MODULE): stands in for the images
// capability only, writing the odd tables the explorer must answer clearly, and a text file that is no table.
// Every other capability runs the real engine.
import fs from "node:fs";
import path from "node:path";

const tables = {
  "ragged.csv": "bytes,proto,label\n10,tcp,0\n20,udp\nx,tcp,1\n40,tcp,1,9\n",
  "empty.csv": "",
  "notes.txt": "not a table\n",
};

export async function images(_run, options) {
  for (const [name, text] of Object.entries(tables)) fs.writeFileSync(path.join(options.outDir, name), text);
  return { outputs: Object.keys(tables).map((name) => ({ name, kind: "file" })), summary: {} };
}
