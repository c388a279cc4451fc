/**
 * The official conformance suite's skills scenarios (SEP-2640) through
 * Switchboard, against our conformance fixture, which really serves a skill
 * (test/fixtures/servers/conformance/skills.mjs): each must pass with checks
 * that succeeded, not be skipped because nothing declared the extension.
 * The backend is spoken to in its own era (2026-07-28) and pinned to 2025.
 * The suite needs Node >= 22 (fs.globSync): CI runs this file in its Node 22
 * step (NODE22_INTEGRATION in .ci/run); on an older Node it is skipped.
 */
import { describe, expect, it } from 'vitest';
import { nodeServer, startProxy } from '../../helpers/harness.js';
import { startBearerForwarder } from '../../conformance/bearerForwarder.js';
import { runSuite } from '../../conformance/suite.js';
import { CONFORMANCE_SERVER } from '../../conformance/targets.js';

const SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

describe.skipIf(NODE_MAJOR < 22)('the suite’s skills scenarios through the switchboard', () => {
  it.each([{}, { protocol: 'legacy' }])('pass with the backend %o', async (era) => {
    const proxy = await startProxy({
      mcpServers: { conformance: nodeServer(CONFORMANCE_SERVER, [], { prefix: '', ...era }) },
    });
    const forwarder = await startBearerForwarder(proxy.url, proxy.token);
    try {
      const results = await runSuite({ url: forwarder.url, scenarios: SCENARIOS });
      for (const scenario of SCENARIOS) {
        const result = results.get(scenario);
        expect(result?.failures, scenario).toEqual([]);
        expect(result?.verdict, scenario).toBe('pass');
        expect(result?.counts.SUCCESS ?? 0, scenario).toBeGreaterThan(3);
      }
    } finally {
      await forwarder.stop();
      await proxy.close();
    }
  });
});
