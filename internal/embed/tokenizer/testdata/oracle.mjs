// Encodes strings with @huggingface/tokenizers, the reference the Go
// tokenizer is compared with (tokenizer_test.go).
//
//   node oracle.mjs LIBDIR TOKENIZER.json STRINGS.json
//
// LIBDIR holds node_modules/@huggingface/tokenizers; STRINGS.json is an
// array of strings. Prints a JSON array with the ids of each string,
// special tokens included.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [libDir, tokenizerPath, stringsPath] = process.argv.slice(2);
const lib = await import(
  pathToFileURL(join(libDir, "node_modules/@huggingface/tokenizers/dist/tokenizers.mjs")).href
);
const tokenizer = new lib.Tokenizer(JSON.parse(readFileSync(tokenizerPath, "utf8")), {});
const texts = JSON.parse(readFileSync(stringsPath, "utf8"));
process.stdout.write(JSON.stringify(texts.map((t) => tokenizer.encode(t).ids)) + "\n");
