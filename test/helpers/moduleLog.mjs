// Preloaded with `node --import` (through NODE_OPTIONS) into a process under test: records in
// $MODULE_LOG_FILE every module URL it imports whose path names one of $MODULE_LOG_MATCH
// (comma-separated), so a test can tell which packages a process loaded: e.g. that `serve`
// with nothing configured never loads OpenTelemetry or prom-client. ESM imports only (Node 20's
// hooks do not see a CommonJS package's own require calls; its entry, imported by us, is seen).
import { register } from 'node:module';

if (process.env.MODULE_LOG_FILE) {
  register('./moduleLogHooks.mjs', import.meta.url, {
    data: { file: process.env.MODULE_LOG_FILE, match: (process.env.MODULE_LOG_MATCH ?? '').split(',').filter(Boolean) },
  });
}
