// Zero-config serving: the card of `agent-card.json` (+ `package.json`) in the working directory
// and, with `watch`, the same files read again when they change. The only part of serving that
// needs Node's file system; the responder reaches it only when `card` is left out.
import type { FSWatcher } from 'node:fs';
import { AGENT_CARD_CONFIG_FILE, loadAgentCardConfig, readAgentCardConfig } from './config';
import { AgentCardError } from './errors';
import type { ValidationProfile } from './findings';
import type { Health } from './http/kernel/health';
import { logWarning } from './http/kernel/log';
import type { AgentCard } from './model';
import { nodeBuiltin } from './node-builtins';

/**
 * `node:fs` and `node:path`, reached when watching starts (never at import: core loads where they
 * do not exist). Watching follows zero-config reading, which needs them already.
 */
function nodeFiles(): { fs: typeof import('node:fs'); path: typeof import('node:path') } {
  const fs = nodeBuiltin('node:fs');
  const path = nodeBuiltin('node:path');
  if (fs === undefined || path === undefined)
    throw new AgentCardError(
      'ERR_AGENT_CARD_CONFIG',
      'watch: this runtime has no node:fs, so agent-card.json cannot be read or watched. Pass the card as the card option instead.',
    );
  return { fs, path };
}

/** The card of `agent-card.json` in `cwd`, validated by the responder (which warns once). */
export function loadZeroConfigCard(profile: ValidationProfile, cwd?: string): AgentCard {
  return loadAgentCardConfig({ profile, logger: { warn: () => {} }, ...(cwd === undefined ? {} : { cwd }) });
}

/** Symbolic links followed to find the directories a change can come from. */
const MAX_LINKS = 8;

/**
 * The directories whose entries decide what `file` reads, each with the names in it that matter:
 * the file's own, and for every symbolic link on the way to the real file, the link target's
 * first step. A Kubernetes ConfigMap volume links `agent-card.json` to `..data/agent-card.json`
 * and swaps `..data` to a new directory in one rename: seen in the mount directory as `..data`.
 */
function watchedNames(file: string, into: Map<string, Set<string>>): void {
  const { fs, path } = nodeFiles();
  const { lstatSync, readlinkSync } = fs;
  const { basename, dirname, relative, resolve, sep } = path;
  const add = (dir: string, name: string) => {
    const names = into.get(dir) ?? new Set<string>();
    names.add(name);
    into.set(dir, names);
  };
  let current = file;
  add(dirname(current), basename(current));
  for (let i = 0; i < MAX_LINKS; i++) {
    let link: string;
    try {
      if (!lstatSync(current).isSymbolicLink()) return;
      link = readlinkSync(current);
    } catch {
      return;
    }
    const target = resolve(dirname(current), link);
    const step = relative(dirname(current), target).split(sep)[0];
    if (step !== undefined && step !== '' && step !== '..') add(dirname(current), step);
    add(dirname(target), basename(target));
    current = target;
  }
}

/** Whether a change to `name` in a watched directory can change the card. */
function matters(names: ReadonlySet<string>, name: string | null): boolean {
  // No name (some platforms), a name that matters, or a ConfigMap's own entries (`..data_tmp`).
  return name === null || names.has(name) || name.startsWith('..');
}

/** Settings of {@link watchZeroConfigCard}. */
export interface ZeroConfigWatchSettings {
  profile: ValidationProfile;
  /** Milliseconds from the first change seen to the reload: every change in between is one reload. */
  debounce: number;
  /** Serves a card that changed (validated again by the responder; a throw is a failure). */
  onCard(card: AgentCard): void;
  /** A reload that failed: the card served before is kept. Called once per distinct error. */
  onFailure(error: unknown, repeated: boolean): void;
  /** The working directory. @default process.cwd() */
  cwd?: string;
}

/**
 * Watches `agent-card.json` and the `package.json` it takes fields from (their directories, and
 * those of the links to them), and serves the card again when what they make changes: at most one
 * reload per `debounce` milliseconds however many events a change fires, and none when the card
 * made is the one served. The watchers never keep the process alive; `close()` stops them.
 */
export function watchZeroConfigCard(initial: AgentCard, settings: ZeroConfigWatchSettings): { close(): void } {
  const cwd = settings.cwd === undefined ? undefined : { cwd: settings.cwd };
  const { file, packageJson } = readAgentCardConfig(cwd);
  let served = JSON.stringify(initial);
  let lastFailure: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  // Each watched directory with the names in it that matter, computed again after every reload:
  // a link retargeted to another directory (`agent-card.json -> v2/card.json`) moves the watch.
  const watched = new Map<string, { watcher: FSWatcher; names: Set<string> }>();
  const rewatch = (starting: boolean) => {
    const dirs = new Map<string, Set<string>>();
    watchedNames(file, dirs);
    if (packageJson !== undefined) watchedNames(packageJson, dirs);
    for (const [dir, entry] of watched)
      if (!dirs.has(dir)) {
        entry.watcher.close();
        watched.delete(dir);
      }
    for (const [dir, names] of dirs) {
      const entry = watched.get(dir);
      if (entry !== undefined) {
        entry.names = names;
        continue;
      }
      let watcher: FSWatcher;
      try {
        watcher = nodeFiles().fs.watch(dir, { persistent: false }, (_event, name) => {
          if (matters(added.names, name === null ? null : String(name))) schedule();
        });
      } catch (error) {
        // At start-up a directory that cannot be watched is an error; later (a link to a
        // directory not there yet), the next reload tries again.
        if (starting) throw error;
        continue;
      }
      const added = { watcher, names };
      // A directory that goes away (the old side of a swapped link) ends its watcher, not the others.
      watcher.on('error', () => {
        watcher.close();
        if (watched.get(dir) === added) watched.delete(dir);
      });
      watched.set(dir, added);
    }
  };

  const reload = () => {
    timer = undefined;
    if (closed) return;
    try {
      const card = loadZeroConfigCard(settings.profile, settings.cwd);
      const json = JSON.stringify(card);
      if (json !== served) settings.onCard(card);
      served = json;
      lastFailure = undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      settings.onFailure(error, message === lastFailure);
      lastFailure = message;
    }
    rewatch(false);
  };
  const schedule = () => {
    if (closed || timer !== undefined) return;
    timer = setTimeout(reload, settings.debounce);
    timer.unref?.();
  };

  try {
    rewatch(true);
  } catch (error) {
    for (const { watcher } of watched.values()) watcher.close();
    throw error;
  }
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const { watcher } of watched.values()) watcher.close();
      watched.clear();
    },
  };
}

/** What {@link watchServedCard} needs from the responder. */
export interface ServedCardWatch {
  profile: ValidationProfile;
  debounce: number;
  logger: Pick<Console, 'warn'>;
  health: Health;
  /** Swaps the card in, validated as at start-up (the responder's `update`). */
  update(card: AgentCard): void;
}

/**
 * `watch`: serves `agent-card.json` again when it changes. A file that does not validate (or no
 * longer reads) leaves the card served as it was, is logged once with why, and makes the status
 * `stale` until a good file comes.
 */
export function watchServedCard(initial: AgentCard, w: ServedCardWatch): { close(): void } {
  try {
    return watchZeroConfigCard(initial, {
      profile: w.profile,
      debounce: w.debounce,
      onCard(card) {
        w.update(card);
        w.health.ok();
        (w.logger as { info?: (message: string) => void }).info?.(`agent card: ${AGENT_CARD_CONFIG_FILE} reloaded.`);
      },
      onFailure(error, repeated) {
        w.health.stale(error);
        if (repeated) return;
        const why = error instanceof Error ? error.message : String(error);
        logWarning(
          w.logger,
          `agent card: ${AGENT_CARD_CONFIG_FILE} changed but is not served; the card served before stays. ${why}`,
          { code: error instanceof AgentCardError ? error.code : undefined },
        );
      },
    });
  } catch (cause) {
    // No watch (inotify's limit reached, a directory that cannot be read): a start-up error, as
    // a reload that silently never comes is worse than a refusal to start.
    throw new AgentCardError(
      'ERR_AGENT_CARD_CONFIG',
      `options.watch: ${AGENT_CARD_CONFIG_FILE} cannot be watched (${(cause as NodeJS.ErrnoException).code ?? String(cause)}). Raise fs.inotify.max_user_watches, or leave watch out and restart to change the card.`,
      { cause },
    );
  }
}
