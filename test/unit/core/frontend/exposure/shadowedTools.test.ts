import { describe, expect, it } from 'vitest';
import { logShadowedTools } from '../../../../../electron/core/frontend/exposure/shadowedTools.js';

describe('logShadowedTools', () => {
  it('says once per client and tool how to reach a backend tool a meta-tool shadows', () => {
    const warnings: string[] = [];
    const logger = { info: () => undefined, warn: (m: string) => void warnings.push(m), error: () => undefined };
    const tool = { name: 'search_tools', inputSchema: { type: 'object' as const } };
    logShadowedTools(logger, 'unit-a', [tool]);
    logShadowedTools(logger, 'unit-a', [tool]);
    logShadowedTools(logger, 'unit-b', [tool]);
    logShadowedTools(logger, 'unit-c', []);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('client "unit-a"');
    expect(warnings[0]).toContain('call_tool {"name": "search_tools"}');
  });
});
