// The module hooks of moduleLog.mjs (they run on Node's hooks thread): each resolved URL that
// matches is appended to the log file, one per line.
import { appendFileSync } from 'node:fs';

let file;
let match = [];

export function initialize(data) {
  file = data.file;
  match = data.match;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (match.some((part) => resolved.url.includes(part))) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
