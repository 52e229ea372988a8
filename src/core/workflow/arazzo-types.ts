// The parts of an Arazzo 1.0 / 1.1 document the runner reads, as its JSON Schema has checked them.

export interface ArazzoDocument {
  arazzo: string;
  info: { title: string; version: string };
  sourceDescriptions: SourceDescription[];
  workflows: Workflow[];
  components?: Components;
}

interface SourceDescription {
  name: string;
  url: string;
  type?: 'openapi' | 'arazzo' | 'asyncapi';
}

interface Components {
  inputs?: Record<string, unknown>;
  parameters?: Record<string, ParameterObject>;
  successActions?: Record<string, ActionObject>;
  failureActions?: Record<string, ActionObject>;
}

export interface Workflow {
  workflowId: string;
  summary?: string;
  inputs?: Record<string, unknown>;
  dependsOn?: string[];
  steps: Step[];
  successActions?: (ActionObject | ReusableObject)[];
  failureActions?: (ActionObject | ReusableObject)[];
  outputs?: Record<string, OutputValue>;
  parameters?: (ParameterObject | ReusableObject)[];
}

export interface Step {
  stepId: string;
  description?: string;
  operationId?: string;
  operationPath?: string;
  workflowId?: string;
  /** AsyncAPI steps (1.1) have these. */
  channelPath?: string;
  action?: 'send' | 'receive';
  parameters?: (ParameterObject | ReusableObject)[];
  requestBody?: RequestBodyObject;
  successCriteria?: Criterion[];
  onSuccess?: (ActionObject | ReusableObject)[];
  onFailure?: (ActionObject | ReusableObject)[];
  outputs?: Record<string, OutputValue>;
}

/** A runtime expression, or 1.1's Selector Object. */
export type OutputValue = string | SelectorObject;

interface SelectorObject {
  context: string;
  selector: string;
  type: string | { type: string; version?: string };
}

export interface ParameterObject {
  name: string;
  in?: 'path' | 'query' | 'querystring' | 'header' | 'cookie' | 'channel';
  value: unknown;
}

export interface ReusableObject {
  reference: string;
  value?: unknown;
}

export interface RequestBodyObject {
  contentType?: string;
  payload?: unknown;
  replacements?: {
    target: string;
    targetSelectorType?: string | { type: string; version?: string };
    value: unknown;
  }[];
}

export interface Criterion {
  context?: string;
  condition: string;
  type?: string | { type: string; version?: string };
}

export interface ActionObject {
  name: string;
  type: 'end' | 'goto' | 'retry';
  workflowId?: string;
  stepId?: string;
  parameters?: (ParameterObject | ReusableObject)[];
  retryAfter?: number;
  retryLimit?: number;
  criteria?: Criterion[];
}

export function isReusable(value: object): value is ReusableObject {
  return 'reference' in value;
}
