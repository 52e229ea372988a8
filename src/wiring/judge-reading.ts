import type { JudgeReading } from '../core/proxy/judge.js';
import { createViolationLog } from '../core/proxy/violations.js';
import { loadSpec, type LoadedSpec } from '../openapi/load.js';
import { createApp } from './create-app.js';

/**
 * The reading of a spec that judges exchanges with a server it does not know the credentials
 * of (offline traffic, a workflow's steps): the proxy's, which checks a credential's presence
 * and place and leaves its value to the server. It keeps no records.
 * @throws {SpecError} for a spec it cannot read.
 * @example const reading = await judgeReadingOf('api.yaml'); await judgeExchange(reading, exchange);
 */
export async function judgeReadingOf(
  spec: string | LoadedSpec,
): Promise<JudgeReading & { basePath: string }> {
  const loaded = typeof spec === 'string' ? await loadSpec(spec) : spec;
  const app = createApp({
    spec: loaded,
    seedCount: 0,
    proxy: { violations: createViolationLog(0) },
  });
  return {
    route: app.mock.route,
    inspect: app.mock.inspect,
    answerRules: app.mock.answerRules,
    basePath: app.mock.basePath,
  };
}
