// Request values stay small whatever `maxLength` a description allows: OpenAI's
// `InlineSkillSourceParam.data` says 70,254,592, and a generator that honours it whole spends a
// minute of CPU on one request body (issue 28's corpus).
import { describe, expect, it } from 'vitest';
import { createValueMaker } from '../corpus/values.js';

describe('request values of the corpus harness', () => {
  it('keeps a string short under a huge maxLength, and valid', () => {
    const values = createValueMaker(1);
    for (let i = 0; i < 20; i++) {
      const value = values.request({ type: 'string', minLength: 1, maxLength: 70_254_592 });
      expect(typeof value).toBe('string');
      expect((value as string).length).toBeGreaterThanOrEqual(1);
      expect((value as string).length).toBeLessThanOrEqual(256);
    }
  });

  it('still meets a minLength above the cap', () => {
    const value = createValueMaker(2).request({
      type: 'string',
      minLength: 300,
      maxLength: 10_485_760,
    });
    expect((value as string).length).toBeGreaterThanOrEqual(300);
    expect((value as string).length).toBeLessThanOrEqual(300);
  });
});
