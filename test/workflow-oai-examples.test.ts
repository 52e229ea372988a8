// The OAI's own Arazzo material (test/fixtures/workflows/SOURCES.md): the 1.1 schema's test
// documents read as the schema means, and the published 1.0 examples run on the mock, their
// defects told with their lines.
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArazzo } from '../src/core/workflow/arazzo-read.js';
import { runCli } from './helpers.js';
import { tempFolder } from './temp-folders.js';

const SCHEMA_TESTS = 'test/fixtures/workflows/oai-schema-tests';
const EXAMPLES = 'test/fixtures/workflows/oai-examples';

describe("the Arazzo 1.1 schema's own test documents", async () => {
  const pass = await readdir(join(SCHEMA_TESTS, 'pass'));
  const fail = await readdir(join(SCHEMA_TESTS, 'fail'));

  it.each(pass)('reads pass/%s', async (file) => {
    await expect(readArazzo(join(SCHEMA_TESTS, 'pass', file))).resolves.toBeDefined();
  });

  it.each(fail)('refuses fail/%s with a line', async (file) => {
    await expect(readArazzo(join(SCHEMA_TESTS, 'fail', file))).rejects.toThrow(
      new RegExp(`${file.replace(/\./g, '\\.')}:\\d+: `),
    );
  });
});

describe("the OAI's 1.0 examples", () => {
  it('pet-coupons: a path parameter the operation does not have, told with its line', async () => {
    const { err, code } = await runCli(
      'workflow',
      join(EXAMPLES, 'pet-coupons.arazzo.yaml'),
      '--mock',
    );
    expect(code).toBe(2);
    expect(err).toBe(
      `petstore-kit workflow: cannot run: ${EXAMPLES}/pet-coupons.arazzo.yaml:40: getPetCoupons has no path parameter "pet_id" (did you mean "petId"?)\n`,
    );
  });

  it('pet-coupons, its path parameter renamed: every workflow passes on the mock', async () => {
    const folder = await tempFolder('pet-coupons');
    const text = await readFile(join(EXAMPLES, 'pet-coupons.arazzo.yaml'), 'utf8');
    await writeFile(
      join(folder, 'flows.arazzo.yaml'),
      text.replace('- name: pet_id\n            in: path', '- name: petId\n            in: path'),
    );
    await copyFile(
      join(EXAMPLES, 'pet-coupons.openapi.yaml'),
      join(folder, 'pet-coupons.openapi.yaml'),
    );
    const { out, code } = await runCli(
      'workflow',
      join(folder, 'flows.arazzo.yaml'),
      '--mock',
      '-f',
      'json',
    );
    const reports = (JSON.parse(out) as { workflows: { workflowId: string; outcome: string }[] })
      .workflows;
    expect(reports.map((report) => [report.workflowId, report.outcome])).toEqual([
      ['apply-coupon', 'passed'],
      ['buy-available-pet', 'passed'],
      ['place-order', 'passed'],
    ]);
    expect(code).toBe(0);
  });

  it('FAPI-PAR: an operationId in the wrong case, told with its line and the right one', async () => {
    const { err, code } = await runCli(
      'workflow',
      join(EXAMPLES, 'FAPI-PAR.arazzo.yaml'),
      '--mock',
    );
    expect(code).toBe(2);
    expect(err).toContain(
      `FAPI-PAR.arazzo.yaml:102: operationId "PAR" is not an operation of auth-api (did you mean "Par"?)`,
    );
  });

  it('bnpl: a step output read without .outputs, told with its line', async () => {
    const folder = await tempFolder('bnpl');
    const text = await readFile(join(EXAMPLES, 'bnpl-arazzo.yaml'), 'utf8');
    // Its source is named by a URL of the OAI repository: the same file, read here.
    await writeFile(
      join(folder, 'bnpl.arazzo.yaml'),
      text.replace(/url: https:\/\/\S+bnpl-openapi\.yaml/, 'url: ./bnpl-openapi.yaml'),
    );
    await copyFile(join(EXAMPLES, 'bnpl-openapi.yaml'), join(folder, 'bnpl-openapi.yaml'));
    const { err, code } = await runCli('workflow', join(folder, 'bnpl.arazzo.yaml'), '--mock');
    expect(code).toBe(2);
    expect(err).toContain(
      `bnpl.arazzo.yaml:260: "$steps.retrieveFinalizedPaymentPlan.finalizedPaymentPlan": a step's values are read as $steps.<stepId>.outputs.<name>`,
    );
  });

  it('oauth: runs on the mock and names what the mock lacks (a token in an answer it does not describe)', async () => {
    const folder = await tempFolder('oauth');
    const inputs = join(folder, 'inputs.json');
    await writeFile(
      inputs,
      JSON.stringify({
        client_id: 'abc',
        client_secret: 's',
        redirect_uri: 'https://example.com/cb',
      }),
    );
    const { err, code } = await runCli(
      'workflow',
      join(EXAMPLES, 'oauth.arazzo.yaml'),
      '--mock',
      '--inputs',
      inputs,
      '--workflow',
      'client-credentials-flow',
    );
    expect(code).toBe(1);
    expect(err).toContain(
      'client-credentials-flow/get-client-creds-token: the mock answered 200 to get-token (POST /oauth/token), where the workflow asks jsonpath $[?@.access_token != null] on $response.body',
    );
  });
});
