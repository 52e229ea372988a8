// The proxy's options come from the one table of options: its flags, their units and their
// checks are the library's.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addOptionFlags, optionValues } from '../src/cli/option-flags.js';
import { validateOptions } from '../src/wiring/options.js';
import { resolveOptions } from '../src/wiring/options.js';
import { startProxy } from '../src/wiring/start-proxy.js';

function proxyFlags(argv: string[]): Record<string, unknown> {
  const command = addOptionFlags(new Command('proxy'), 'proxy').exitOverride();
  command.parse(argv, { from: 'user' });
  return validateOptions(optionValues(command, 'proxy'), 'proxy');
}

describe('petstore-kit proxy: options', () => {
  it('takes its flags from the table, with the library option each one sets', () => {
    const given = proxyFlags([
      '--target',
      'https://staging.example.com/v1',
      '--target-timeout',
      '0.5',
      '--record',
      'staging.json',
      '--har',
      'session.har',
      '--enforce',
    ]);
    expect(given).toMatchObject({
      target: 'https://staging.example.com/v1',
      targetTimeoutSeconds: 0.5,
      record: 'staging.json',
      har: 'session.har',
      enforce: true,
    });
    // Converted once, with the other durations.
    expect(resolveOptions(given, 'proxy').targetTimeoutMs).toBe(500);
    expect(resolveOptions({}, 'proxy').targetTimeoutMs).toBe(30_000);
  });

  it('keeps a key given with its scopes whole, as the variable does', () => {
    expect(proxyFlags(['--target', 'http://t', '-k', 't[read,write],u']).apiKeys).toEqual([
      't[read,write]',
      'u',
    ]);
  });

  it('cannot run without a target', () => {
    expect(() => proxyFlags([])).toThrow(/--target/);
  });

  it('refuses a target that is not an http or https URL, as the CLI and the library alike', async () => {
    expect(() => proxyFlags(['--target', 'ftp://example.com'])).toThrow(
      /option target \(--target, PROXY_TARGET\): it must be an http or https URL/,
    );
    await expect(startProxy({ target: 'staging' })).rejects.toMatchObject({
      code: 'invalid_option',
    });
    await expect(startProxy({})).rejects.toMatchObject({ code: 'invalid_option' });
  });
});
