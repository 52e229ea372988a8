import type { Mock } from '../core/create-mock.js';
import { checkReferences } from '../core/workflow/arazzo-check.js';
import { ArazzoError, readArazzo } from '../core/workflow/arazzo-read.js';
import { failureOf, runWorkflows } from '../core/workflow/workflow-runner.js';
import { StartupError } from '../vocabulary/errors.js';
import { workflowSources } from './workflow-sources.js';

/** A seed workflow that cannot run or failed: the mock does not start. */
class SeedWorkflowError extends StartupError {
  override name = 'SeedWorkflowError';
}

/**
 * Runs each `file#workflowId` against a mock, in the process, through its `fetch` with a key it
 * accepts: what they create is then the state the caller marks as the start-up one.
 * @throws {SeedWorkflowError} in one line, when one cannot be read or run, or fails.
 * @example await runSeedWorkflows(app.mock, ['flows.arazzo.yaml#customer-with-orders'], ['secret'])
 */
export async function runSeedWorkflows(
  mock: Mock,
  seedWorkflows: readonly string[],
  apiKeys: readonly string[],
): Promise<void> {
  // A plain key is every scheme's token; `scheme=key` is one scheme's.
  const token = apiKeys.find((key) => !/[=[]/.test(key));
  const byScheme = new Map(
    apiKeys.flatMap((key) => {
      const at = key.indexOf('=');
      return at > 0 ? [[key.slice(0, at), key.slice(at + 1)] as [string, string]] : [];
    }),
  );
  for (const given of seedWorkflows) {
    const hash = given.lastIndexOf('#');
    const file = hash === -1 ? given : given.slice(0, hash);
    const id = hash === -1 ? undefined : given.slice(hash + 1);
    const fail = (why: string): never => {
      throw new SeedWorkflowError(`seed workflow ${given}: ${why}`);
    };
    try {
      const read = await readArazzo(file);
      const { sources } = await workflowSources(read, { mock: () => mock });
      if (sources.length !== 1)
        fail(
          `it must name one OpenAPI source description, the mock's (it names ${sources.length})`,
        );
      const problems = checkReferences(read, sources);
      if (problems.length > 0) throw new ArazzoError(file, problems);
      const ids = read.document.workflows.map((workflow) => workflow.workflowId);
      if (id !== undefined && !ids.includes(id))
        fail(`the document has no workflow "${id}" (it has: ${ids.join(', ')})`);
      const reports = await runWorkflows({
        document: read.document,
        sources,
        credentials: { token, byScheme },
        workflowIds: id === undefined ? ids : [id],
      });
      for (const report of reports) {
        if (report.outcome === 'passed') continue;
        const step = report.steps.find((candidate) => !candidate.passed);
        fail(
          `${report.workflowId} ${report.outcome}: ${report.reason ?? (step ? failureOf(step) : '')}`,
        );
      }
    } catch (err) {
      if (err instanceof SeedWorkflowError) throw err;
      if (err instanceof ArazzoError || err instanceof StartupError)
        fail(err.message.replace(/\n/g, '; '));
      throw err;
    }
  }
}
