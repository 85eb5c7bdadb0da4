import { afterAll, describe, it } from 'vitest';
import type { AgentCardOptions } from '../http/types';
import type { AgentCardConformanceOptions, ConformanceServer } from './server';

/** One response, read whole. */
export interface Got {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  text: string;
}

/** What a case is handed: its feature's state, and requests to the host started for a fixture. */
export interface CaseTools<S> {
  /** What the feature's `state()` returned for this run of the suite. */
  readonly state: S;
  /** Requests `path` from the host started with the options of `fixture` (started on first use). */
  get(fixture: string, path: string, init?: RequestInit): Promise<Got>;
  /** The base URL of the host started with the options of `fixture`. */
  url(fixture: string): Promise<string>;
}

/** One row of a feature's table: the test's name and what it checks. */
export interface ConformanceCase<S = undefined> {
  readonly name: string;
  run(t: CaseTools<S>): Promise<void>;
}

/** A row of a table: `check(name, async (t) => { … })`, read like vitest's `it`. */
export function check<S = undefined>(name: string, run: (t: CaseTools<S>) => Promise<void>): ConformanceCase<S> {
  return { name, run };
}

/** Rows shown under a heading of their own inside a feature, e.g. one per agent. */
export interface ConformanceGroup<S = undefined> {
  readonly group: string;
  readonly cases: readonly ConformanceCase<S>[];
}

/**
 * One feature of the suite: the options it starts hosts with (fixtures, by name) and its table of
 * cases. A case may use another feature's fixture by name (e.g. `default`, to show a feature off).
 */
export interface ConformanceFeature<S = undefined> {
  /** The heading of its tests; without one, its cases sit directly in the suite. */
  readonly title?: string;
  /** Per-run state its fixtures and cases share (a provider's call count, signing keys). */
  readonly state?: () => S;
  /** Options per fixture name; the runner adds a silent `logger` and `onError`. */
  readonly fixtures?: Readonly<Record<string, (state: S) => AgentCardOptions<any>>>;
  readonly cases: readonly (ConformanceCase<S> | ConformanceGroup<S>)[];
}

const SILENT: AgentCardOptions<any> = { logger: { warn: () => {} }, onError: () => {} };

/** Fetches `url` without following redirects and reads the whole body. */
async function fetchWhole(url: string, init: RequestInit = {}): Promise<Got> {
  const res = await fetch(url, { redirect: 'manual', ...init });
  const body = new Uint8Array(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    headers[k] = v;
  });
  return { status: res.status, headers, body, text: new TextDecoder().decode(body) };
}

/**
 * Registers `features` as one vitest suite named `{config.name}: {title}`: a `describe` per
 * feature, an `it` per case, one host per fixture started lazily through `config.start`, and
 * every host closed after the suite.
 */
export function runConformanceFeatures(
  config: AgentCardConformanceOptions,
  title: string,
  features: readonly ConformanceFeature<any>[],
): void {
  const fixtures = new Map<string, () => AgentCardOptions<any>>();
  const started = new Map<string, Promise<ConformanceServer>>();
  const server = (fixture: string): Promise<ConformanceServer> => {
    let s = started.get(fixture);
    if (s === undefined) {
      const options = fixtures.get(fixture);
      if (options === undefined) throw new Error(`No conformance fixture is named ${fixture}.`);
      s = config.start({ ...SILENT, ...options() });
      started.set(fixture, s);
    }
    return s;
  };
  const get = async (fixture: string, path: string, init?: RequestInit) =>
    fetchWhole((await server(fixture)).url + path, init);
  const url = async (fixture: string) => (await server(fixture)).url;

  describe(`${config.name}: ${title}`, () => {
    afterAll(async () => {
      const all = await Promise.allSettled([...started.values()]);
      await Promise.all(all.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
    });
    for (const feature of features) {
      const state = feature.state?.();
      for (const [name, options] of Object.entries(feature.fixtures ?? {})) {
        if (fixtures.has(name)) throw new Error(`Two conformance features define the fixture ${name}.`);
        fixtures.set(name, () => options(state));
      }
      const tools: CaseTools<unknown> = { state, get, url };
      const register = () => registerCases(feature.cases, tools);
      if (feature.title === undefined) register();
      else describe(feature.title, register);
    }
  });
}

function registerCases(
  entries: readonly (ConformanceCase<any> | ConformanceGroup<any>)[],
  tools: CaseTools<unknown>,
): void {
  for (const entry of entries) {
    if ('group' in entry) describe(entry.group, () => registerCases(entry.cases, tools));
    else it(entry.name, () => entry.run(tools));
  }
}
