import pkg from '../package.json' with { type: 'json' };
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { CliIO } from './io';
import { CliError, colourTerminal, createPainter } from './io';
import { CardInputError } from './read';
import { formatFindings } from './report';
import { guardStream, visible } from './terminal';
import { validateCommand } from './commands/validate';
import { migrateCommand } from './commands/migrate';
import { diffCommand, FAIL_ON } from './commands/diff';
import { formatOption } from './format';
import { checkCommand } from './commands/check';
import { viewCommand } from './commands/view';
import { exportCommand, REGISTRIES } from './commands/export';
import { INIT_BINDINGS, initCommand } from './commands/init';
import { initCatalogCommand } from './commands/init-catalog';
import { signCommand } from './commands/sign';
import { verifyCommand } from './commands/verify';
import { buildCommand } from './commands/build';
import { keysGenerateCommand, keysJwksCommand } from './commands/keygen';
import { AGENT_CARD_CANONICAL_FORMS, AGENT_CARD_SIGNING_ALGORITHMS } from '@agent-card/core';
import { TEMPLATE_NAMES } from './templates';
import { CONFIG_FILE, collectRule } from './rule-settings';
import { rulesCommand } from './commands/rules';
import {
  storeExportCommand,
  storeGetCommand,
  storeImportCommand,
  storeListCommand,
  storePutCommand,
  storeRmCommand,
} from './commands/store';

const PROFILES = ['development', 'production', 'strict'] as const;
/** `--allow-http` of the commands that read a document URL (see `documentUrl`). */
const ALLOW_HTTP_DOCUMENT = 'read an http:// URL from localhost, 127.0.0.1 or ::1 (local development)';
/** `--max-card-bytes` of the commands that read a card from a host. */
const MAX_HOST_CARD_BYTES = 'the largest card of a host read, in bytes (default 262144, 256 KiB)';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('Expected a positive whole number.');
  return n;
}

const example = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/**
 * `--form`: the one canonical form a signature may cover. `served-as-is` refuses signatures over
 * the pruned form, which leaves members at their default value uncovered.
 */
const FORM_OPTION = () =>
  new Option(
    '--form <form>',
    'accept only signatures over this canonical form (default: both); served-as-is refuses the pruned form, which leaves default-valued members uncovered',
  ).choices(AGENT_CARD_CANONICAL_FORMS);

/** `--rule <id>=<setting>` of `validate` and `check`, repeatable; over the config file's `rules`. */
const RULE_OPTION = () =>
  new Option(
    '--rule <id=setting>',
    `set a rule to off, info, warning or error (repeatable; over "rules" of ${CONFIG_FILE}; agent-card rules lists them)`,
  ).argParser(collectRule);

/**
 * Builds the `agent-card` program. Each action stores its exit code in `result.code`.
 */
export function createProgram(io: CliIO, result: { code: number }): Command {
  const program = new Command('agent-card')
    .description('Check, validate, sign and verify A2A Agent Cards.')
    .version(pkg.version, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // What commander would read from the process, read from `io`: the same rules, injectable.
      getOutHelpWidth: () => (io.stdout.isTTY && io.stdout.columns) || 80,
      getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || 80,
      getOutHasColors: () => commanderColour(io.env, io.stdout),
      getErrHasColors: () => commanderColour(io.env, io.stderr),
    })
    .addHelpText(
      'after',
      example('agent-card check acme.io', 'agent-card validate agent-card.json', 'agent-card init --template support'),
    );

  addReadingCommands(program, io, result);
  addWritingCommands(program, io, result);
  addSigningCommands(program, io, result);
  addStoreCommands(program, io, result);
  return program;
}

/** `check`, `validate` and `view`: commands that read a card, a catalog or a host and report. */
function addReadingCommands(program: Command, io: CliIO, result: { code: number }): void {
  program
    .command('check')
    .description('Fetch both well-known paths of a deployed agent and report what clients will see.')
    .argument('<target>', 'a domain (acme.io), an origin or a URL')
    .addOption(
      new Option('--profile <profile>', 'validation profile for the served card')
        .choices(PROFILES)
        .default('production'),
    )
    .option('--json', 'print the full report as JSON (same as --format json)')
    .addOption(formatOption())
    .option(
      '--probe',
      "also call each interface the card lists: does it answer its binding, and enforce the card's security?",
    )
    .option(
      '--probe-header <header>',
      "with --probe: a header (Name: value) sent to the card's origin to fetch the extended card; repeat for more",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--probe-origin <origin>',
      'with --probe: also call interfaces on this origin; repeat for more',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--timeout <ms>', 'time budget per request', positiveInt, 10_000)
    .option('--allow-http', 'check an http:// target as is (local development, 127.0.0.1)')
    .option('--key <file>', "a public key (PEM or JWK) to check the card's signature with")
    .option('--kid <kid>', "the key id --key stands for (required for a PEM key; default: the JWK's kid)")
    .option(
      '--jwks <file|url>',
      "a JWK Set to check the card's signature with (default: the host's /.well-known/jwks.json)",
    )
    .option('--require-signature', 'make an unsigned card, or one no signature of which verifies, an error')
    .addOption(FORM_OPTION())
    .addOption(
      new Option('--follow-catalog <policy>', 'which cards of the AI Catalog to check (off: no catalog request)')
        .choices(['same-origin', 'any', 'off'])
        .default('same-origin'),
    )
    .option(
      '--allow-private-targets',
      'with --follow-catalog any, also follow other origins at loopback, private and link-local addresses',
    )
    .option('--max-agents <n>', 'catalog entries followed at most', positiveInt, 16)
    .option(
      '--max-card-bytes <bytes>',
      'the largest card read, in bytes (default 262144, 256 KiB; registries refuse far less)',
      positiveInt,
    )
    .option('--no-info', 'hide info findings')
    .option('--html <file>', 'also write the report as one self-contained HTML page')
    .option(
      '--against <file|dir|rev:path>',
      'the drift gate: compare what the host serves with what was reviewed, as diff does: a card (a file, or rev:path from git), or the folder agent-card build writes (its AI Catalog, ARD manifest, MCP catalog and JWK Set too)',
    )
    .addOption(
      new Option(
        '--fail-on <impact>',
        'with --against: fail on changes of this impact or worse (default: any)',
      ).choices(FAIL_ON),
    )
    .option(
      '--redact',
      'replace every string of the card in the report by its pointer, length and hash (a report to store or share)',
    )
    .addOption(RULE_OPTION())
    .option('--force', 'overwrite the --html file')
    .addHelpText(
      'after',
      `${example(
        'agent-card check acme.io',
        'agent-card check http://127.0.0.1:3000 --allow-http --profile development',
        'agent-card check acme.io --json > report.json',
        'agent-card check acme.io --html report.html',
      )}\nExit status: 0 when no finding is an error, 1 otherwise, 2 on usage errors (--html does not change it).\n`,
    )
    .action(async (target: string, options) => {
      result.code = await checkCommand(io, target, options);
    });

  program
    .command('validate')
    .description('Validate a local Agent Card or AI Catalog file (or - for stdin).')
    .argument('<file>', 'card file, or - to read stdin')
    .addOption(new Option('--profile <profile>', 'validation profile').choices(PROFILES).default('production'))
    .option('--strict', 'same as --profile strict: unknown fields and snake_case are errors')
    .option('--catalog', 'read the file as an AI Catalog (detected anyway when it has specVersion and entries)')
    .option('--no-info', 'hide info findings')
    .option(
      '--redact',
      'replace every string of the card in the report by its pointer, length and hash (a report to store or share)',
    )
    .option('--json', 'print the result as JSON (same as --format json)')
    .addOption(formatOption())
    .addOption(RULE_OPTION())
    .addHelpText(
      'after',
      example(
        'agent-card validate agent-card.json',
        'agent-card validate agent-card.json --format sarif > agent-card.sarif',
        'cat card.json | agent-card validate - --profile development --json',
        'agent-card validate ai-catalog.json',
      ),
    )
    .action(async (file: string, options) => {
      result.code = await validateCommand(io, file, options);
    });

  program
    .command('rules')
    .description('List the rules: id, severity under each profile, what each checks.')
    .option('--json', 'print every rule with its fix and details as JSON')
    .addHelpText('after', example('agent-card rules', 'agent-card rules --json'))
    .action((options) => {
      result.code = rulesCommand(io, options);
    });

  program
    .command('export')
    .description(
      'Write the record an agent registry (AWS, Google Cloud, AGNTCY) takes for the card, checked against its limits.',
    )
    .argument('<source>', 'a card file, - for stdin, a document URL, a host (https://acme.io) or rev:path')
    .addOption(
      new Option('--registry <registry>', 'the registry the record is for').choices(REGISTRIES).makeOptionMandatory(),
    )
    .option('-o, --output <file>', 'write the record here instead of stdout')
    .option('--force', 'overwrite the output file')
    .option('--json', 'print {source, registry, ok, findings, record} as JSON')
    .option('--no-info', 'hide info findings')
    .option('--registry-id <id>', 'aws: the registry (ARN or id) the record goes into')
    .option('--timeout <ms>', 'time budget per request for a URL or host', positiveInt, 10_000)
    .option('--allow-http', ALLOW_HTTP_DOCUMENT)
    .option('--max-card-bytes <bytes>', MAX_HOST_CARD_BYTES, positiveInt)
    .addHelpText(
      'after',
      example(
        'agent-card export --registry aws agent-card.json -o aws-record.json',
        'agent-card export --registry gcp https://acme.io -o gcp-agent-card.json',
        'agent-card export --registry agntcy agent-card.json -o agntcy-card.json',
      ),
    )
    .action(async (source: string, options) => {
      result.code = await exportCommand(io, source, options);
    });

  program
    .command('view')
    .description('Render a card or an AI Catalog (file, URL or host) as one self-contained HTML page.')
    .argument('<source>', 'a card or AI Catalog file, - for stdin, a document URL, or a host (https://acme.io)')
    .option('-o, --output <file>', 'write the page here instead of stdout')
    .option('--force', 'overwrite the output file')
    .option('--catalog', 'read the file or URL as an AI Catalog (detected anyway when it has specVersion and entries)')
    .option('--timeout <ms>', 'time budget per request for a URL or host', positiveInt, 10_000)
    .option('--allow-http', ALLOW_HTTP_DOCUMENT)
    .option('--max-agents <n>', "a host's catalog entries followed at most", positiveInt, 16)
    .option('--max-card-bytes <bytes>', MAX_HOST_CARD_BYTES, positiveInt)
    .option('--open', 'open the page in the browser ($BROWSER, else the system opener) once written')
    .option(
      '--prompt',
      'print what a model reads from the card (as a2a discover prints it, and as a tool description), with its tokens',
    )
    .addHelpText(
      'after',
      `${example(
        'agent-card view agent-card.json --open',
        'agent-card view agent-card.json -o card.html',
        'agent-card view https://acme.io/.well-known/agent-card.json > card.html',
        'agent-card view https://acme.io -o agents.html',
        'agent-card view http://127.0.0.1:3000 --allow-http -o agents.html',
        'agent-card view --prompt agent-card.json',
      )}\nA file or document URL is shown as it is: a catalog's entries, no card fetched. A host (a URL with\nno path) is read as "check" reads it: its AI Catalog with each listed card on its origin, else its card.\n\nExit status: 0 when the page is written, 1 when the card is not readable JSON, 2 on usage and I/O errors.\n`,
    )
    .action(async (source: string, options) => {
      result.code = await viewCommand(io, source, options);
    });
}

/** `migrate`, `diff` and `init`: commands that compare cards or write new ones. */
function addWritingCommands(program: Command, io: CliIO, result: { code: number }): void {
  program
    .command('build')
    .description(
      'Write the .well-known files and the headers a static host must send (Vercel, Netlify, Cloudflare Pages, nginx).',
    )
    .argument(
      '[config]',
      "a card file (.json) or a module exporting the middleware's options (.mjs, .js, .cjs); default: agent-card.json",
    )
    .option('-o, --out <dir>', 'the directory to write into', 'public')
    .option('--force', 'overwrite files that exist')
    .addOption(
      new Option('--profile <profile>', 'validation profile of the cards').choices(PROFILES).default('production'),
    )
    .addHelpText(
      'after',
      `${example(
        'agent-card build agent-card.json --out public',
        'agent-card build agent-card.config.mjs --out dist',
      )}\nThe files are what the middleware serves for the same options, byte for byte: the card, the legacy alias,\nthe JWK Set, the AI Catalog, each agent's card. With them: _headers (Netlify, Cloudflare Pages) in the\ndirectory, and beside it, where no host serves them, vercel.json and agent-card.nginx.conf (the middleware's ETags,\n304, 204 and 405). Paths nginx, _headers or vercel.json would read as syntax (; $ * : ( ) +) are refused.\n\nExit status: 0 when everything is written, 1 when the options or a card are invalid, 2 on usage and I/O errors.\n`,
    )
    .action(async (config: string | undefined, options) => {
      result.code = await buildCommand(io, config, options);
    });

  program
    .command('migrate')
    .description('Turn a v0.3 or mixed card into a v1.0 card, listing every change.')
    .argument('<file>', 'the card to migrate')
    .option('-o, --output <file>', 'write the v1.0 card here instead of stdout')
    .option('--force', 'overwrite the output file')
    .option('--json', 'print {card, changes, findings} as JSON')
    .addHelpText('after', example('agent-card migrate old-card.json -o agent-card.json'))
    .action(async (file: string, options) => {
      result.code = await migrateCommand(io, file, options);
    });

  program
    .command('diff')
    .description(
      'Judge every change between two cards (files, URLs, hosts or git revisions) as breaking, structural or descriptive.',
    )
    .argument(
      '<a>',
      'the older card: a file, - for stdin, a URL, a host (https://acme.io) or rev:path (main:agent-card.json)',
    )
    .argument('<b>', 'the newer card: the same kinds')
    .option('--json', 'print the differences as JSON (same as --format json)')
    .addOption(formatOption())
    .addOption(
      new Option('--fail-on <impact>', 'exit 1 on changes of this impact or worse (any: every change; none: never)')
        .choices(FAIL_ON)
        .default('breaking'),
    )
    .option('--timeout <ms>', 'time budget for a URL, or per request for a host', positiveInt, 10_000)
    .option('--redact', 'replace every string of both cards in the report by its pointer, length and hash')
    .option('--allow-http', ALLOW_HTTP_DOCUMENT)
    .option('--max-card-bytes <bytes>', MAX_HOST_CARD_BYTES, positiveInt)
    .addHelpText(
      'after',
      example(
        'agent-card diff main:agent-card.json agent-card.json',
        'agent-card diff https://acme.io agent-card.json --fail-on structural',
        'agent-card diff deployed.json agent-card.json --format github',
      ) +
        '\nExit status: 0 when no change reaches --fail-on and, unless --fail-on none, "version" was bumped with\nthe content (or nothing changed); 1 otherwise.\n',
    )
    .action(async (a: string, b: string, options) => {
      result.code = await diffCommand(io, a, b, options);
    });

  program
    .command('init')
    .description('Write a starter agent-card.json from a template, or an AI Catalog of your cards (--catalog).')
    .addOption(new Option('-t, --template <name>', 'starter template (prompted on a terminal)').choices(TEMPLATE_NAMES))
    .option('--name <name>', "the agent's name (prompted)")
    .option('--description <text>', 'what the agent does (prompted)')
    .addOption(
      new Option('--binding <binding>', 'protocol binding of the endpoint (prompted; default JSONRPC)').choices(
        INIT_BINDINGS,
      ),
    )
    .option(
      '--url <url>',
      "the agent's public A2A endpoint URL (prompted; default http://localhost:3000/a2a, gRPC localhost:50051)",
    )
    .option('-o, --output <file>', 'where to write (default agent-card.json, with --catalog ai-catalog.json)')
    .option('--force', 'overwrite an existing file')
    .option('--no-interactive', 'never prompt, even on a terminal')
    .option('--catalog', 'write an AI Catalog (ai-catalog.json) of the --agent cards instead of a card')
    .option(
      '--agent <id=card>',
      'with --catalog: an agent id and its card file (or the https URL of a card hosted elsewhere); repeat per agent',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--host-name <name>', "with --catalog: the catalog's host.displayName")
    .option(
      '--base-url <url>',
      "with --catalog: where the cards are served (default: each card's first interface origin)",
    )
    .option('--agents-path <path>', "with --catalog: where the agents' paths start ({path}/{id})", '/agents')
    .option(
      '--publisher <domain>',
      "with --catalog: your domain, in the identifiers urn:air:{domain}:agent:{id} (default: each card's host name)",
    )
    .option('--draft <id>', 'with --catalog: the AI Catalog draft, 0379c868 (current) or 634a09d9 (previous)')
    .addHelpText(
      'after',
      example(
        'agent-card init',
        'agent-card init --template booking --name "Table Booker" --binding HTTP+JSON --url https://book.acme.io/a2a',
        'agent-card init --catalog --agent billing=billing.json --agent support=support.json --host-name "Acme Corp"',
      ),
    )
    .action(async (options) => {
      if (!options.catalog) {
        const stray = (['agent', 'hostName', 'baseUrl', 'publisher', 'draft'] as const).find(
          (key) => options[key] !== undefined,
        );
        if (stray) {
          const flag = `--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
          throw new CliError(`${flag}: only with --catalog. Add --catalog to write an AI Catalog, or drop ${flag}.`);
        }
      }
      result.code = options.catalog ? await initCatalogCommand(io, options) : await initCommand(io, options);
    });
}

/** `sign`, `verify` and `keys`: signatures and the keys that make and check them. */
function addSigningCommands(program: Command, io: CliIO, result: { code: number }): void {
  program
    .command('sign')
    .description('Sign a card (JWS over its RFC 8785 canonical form) and print or write the signed card.')
    .argument('<file>', 'the card to sign')
    .requiredOption(
      '--key <file>',
      'the private key: PEM (PKCS#8) or JWK; repeat it to sign with each key (--for-everyone keys)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--kid <kid>',
      "key id for the protected header (default: the JWK's kid, else the key's RFC 7638 thumbprint)",
    )
    .addOption(
      new Option('--alg <alg>', "JWS algorithm (default: the JWK's alg)").choices(AGENT_CARD_SIGNING_ALGORITHMS),
    )
    .option('--jku <url>', 'https URL of the JWK Set with the public key')
    .option('-o, --output <file>', 'write the signed card here instead of stdout')
    .option('--force', 'overwrite the output file')
    .addHelpText(
      'after',
      example(
        'agent-card sign agent-card.json --key card-key.pem --kid card-key-1 --alg ES256 -o agent-card.json --force',
        'agent-card sign agent-card.json --key card-key.es256.pem --key card-key.ed25519.pem -o agent-card.json --force',
      ),
    )
    .action(async (file: string, options) => {
      result.code = await signCommand(io, file, options);
    });

  program
    .command('verify')
    .description('Verify the signatures of a card with a public key or a JWK Set.')
    .argument('<card>', 'the signed card: a file, - for stdin, a URL, a host (https://acme.io) or rev:path')
    .option('--key <file>', 'a public key: PEM (SPKI) or JWK')
    .option('--kid <kid>', "the key id --key stands for (required for a PEM key; default: the JWK's kid)")
    .option('--jwks <file|url>', 'a JWK Set file or https URL')
    .addOption(FORM_OPTION())
    .option('--allow-http', 'read the card or the JWKS over http:// from localhost, 127.0.0.1 or ::1 (tests)')
    .addOption(
      new Option(
        '--follow-artifacts <which>',
        "AI Catalog: fetch the entries of the catalog's own origin (same-origin) or of any https origin (any) to check their digests",
      ).choices(['same-origin', 'any']),
    )
    .option(
      '--allow-private',
      'AI Catalog: let entry and DID document requests reach loopback, private and link-local addresses',
    )
    .option('--timeout <ms>', 'time budget for a URL, or per request for a host', positiveInt, 10_000)
    .option(
      '--max-card-bytes <bytes>',
      'the largest card verified, in bytes (default 262144, 256 KiB; registries refuse far less)',
      positiveInt,
    )
    .option('--json', 'print the result as JSON (same as --format json)')
    .addOption(formatOption())
    .addHelpText(
      'after',
      `${example(
        'agent-card verify agent-card.json --key card-key.pub.pem --kid card-key-1',
        'agent-card verify https://agents.example.com/.well-known/ai-catalog.json   # did:web-signed catalog: no key needed',
        'agent-card verify agent-card.json --jwks https://acme.io/.well-known/jwks.json',
        'agent-card verify https://acme.io --jwks https://acme.io/.well-known/jwks.json',
      )}\nExit status: 0 when at least one signature verifies, 1 otherwise.\n`,
    )
    .action(async (file: string, options) => {
      result.code = await verifyCommand(io, file, options);
    });

  const keys = program.command('keys').description('Make signing keys and the JWK Set that publishes them.');
  keys
    .command('generate')
    .description('Write a new private key (PKCS#8 PEM, mode 0600) and print its public JWK.')
    .addOption(
      new Option('--alg <alg>', 'JWS algorithm the key is for').choices(AGENT_CARD_SIGNING_ALGORITHMS).default('ES256'),
    )
    .addOption(
      new Option(
        '--for-everyone',
        'write two keys, ES256 and Ed25519 (-o card-key.pem: card-key.es256.pem and card-key.ed25519.pem), and print their JWK Set: signed with both, a card verifies under every verifier',
      ).conflicts(['alg', 'kid']),
    )
    .option('-o, --output <file>', 'where to write the private key', 'card-key.pem')
    .option('--kid <kid>', "key id of the public JWK (default: the key's RFC 7638 thumbprint)")
    .option('--force', 'overwrite the output file')
    .addHelpText(
      'after',
      example(
        'agent-card keys generate',
        'agent-card keys generate --alg EdDSA -o card-key.pem > card-key.pub.jwk',
        'agent-card keys generate --for-everyone > jwks.json',
      ),
    )
    .action(async (options) => {
      result.code = await keysGenerateCommand(io, options);
    });
  keys
    .command('jwks')
    .description('Print the JWK Set of the given keys (PEM or JWK, public or private): public members only.')
    .argument('<key...>', 'key files')
    .addOption(
      new Option('--alg <alg>', 'the alg to publish for keys that do not name one').choices(
        AGENT_CARD_SIGNING_ALGORITHMS,
      ),
    )
    .addHelpText('after', example('agent-card keys jwks card-key.pem next-key.pub.pem > jwks.json'))
    .action(async (files: string[], options) => {
      result.code = await keysJwksCommand(io, files, options);
    });
}

/** `--store`, with `AGENT_CARD_STORE` as its default, and `--create-table`. */
const storeOptions = (command: Command): Command =>
  command
    .option(
      '--store <location>',
      'the store: redis://…, postgres://…, files:<dir> or a folder (default: $AGENT_CARD_STORE)',
    )
    .option('--create-table', 'PostgreSQL: create the tables when they are missing');

/** The options of `put` and `import`: those of `validate` and the signing key of `sign`. */
const writeOptions = (command: Command): Command =>
  command
    .addOption(new Option('--profile <profile>', 'validation profile').choices(PROFILES).default('production'))
    .option('--strict', 'same as --profile strict')
    .option('--no-info', 'hide info findings')
    .addOption(RULE_OPTION())
    .option(
      '--key <file>',
      'sign with this private key (PEM or JWK) before writing; repeat for more keys',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--kid <kid>', "with --key: the key id (default: the JWK's kid, else the key's thumbprint)")
    .addOption(
      new Option('--alg <alg>', "with --key: the JWS algorithm (default: the JWK's alg)").choices(
        AGENT_CARD_SIGNING_ALGORITHMS,
      ),
    )
    .option('--jku <url>', 'with --key: https URL of the JWK Set with the public key');

/** `store put|get|list|rm|import|export`: the cards of a store that every replica serves. */
function addStoreCommands(program: Command, io: CliIO, result: { code: number }): void {
  const store = program
    .command('store')
    .description('Read and write the cards of a store (Redis, PostgreSQL or a folder) that every replica serves.')
    .addHelpText(
      'after',
      `${example(
        'agent-card store import ./cards --tenant acme --store redis://127.0.0.1:6379',
        'agent-card store put acme support support.json --key card-key.pem',
        'agent-card store list --json',
        'agent-card store export snapshot.json',
      )}\nThe store is --store or $AGENT_CARD_STORE. Exit status as for validate: 0 done, 1 invalid card (nothing\nwritten), no such card or an older --version, 2 on usage errors and an unreachable store.\n`,
    );
  writeOptions(storeOptions(store.command('put')))
    .description('Validate a card, sign it with --key, and write it for every replica.')
    .argument('<tenant>', 'the tenant (acme, acme.io)')
    .argument('<agent>', 'the agent (main, support)')
    .argument('<card>', 'the card file, or - for stdin')
    .option('--version <n>', 'the version to write (refused unless newer than the stored one)', positiveInt)
    .action(async (tenant: string, agent: string, card: string, options) => {
      result.code = await storePutCommand(io, tenant, agent, card, options);
    });
  storeOptions(store.command('get'))
    .description('Print a stored card, byte for byte as the replicas serve it.')
    .argument('<tenant>')
    .argument('<agent>')
    .action(async (tenant: string, agent: string, options) => {
      result.code = await storeGetCommand(io, tenant, agent, options);
    });
  storeOptions(store.command('list'))
    .description('List every stored card (tenant/agent), page after page.')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--json', 'print [{ tenant, agent }] as JSON')
    .action(async (options) => {
      result.code = await storeListCommand(io, options);
    });
  storeOptions(store.command('rm'))
    .description('Delete a stored card (every replica stops serving it).')
    .argument('<tenant>')
    .argument('<agent>')
    .action(async (tenant: string, agent: string, options) => {
      result.code = await storeRmCommand(io, tenant, agent, options);
    });
  writeOptions(storeOptions(store.command('import')))
    .description('Write a folder of cards (<agent>.json) or the cards of an AI Catalog (file or URL) for a tenant.')
    .argument('<source>', 'a folder of <agent>.json files, an AI Catalog file, or its URL')
    .requiredOption('--tenant <tenant>', 'the tenant the cards are written for')
    .addOption(
      new Option('--follow <policy>', "which catalog entries' cards are fetched")
        .choices(['same-origin', 'any'])
        .default('same-origin'),
    )
    .option(
      '--allow-private-targets',
      'with --follow any, also fetch cards on other origins at loopback, private and link-local addresses',
    )
    .option('--allow-http', ALLOW_HTTP_DOCUMENT)
    .option('--timeout <ms>', 'time budget per request', positiveInt, 10_000)
    .option('--max-agents <n>', 'catalog entries read at most (a larger catalog is refused)', positiveInt, 1000)
    .action(async (source: string, options) => {
      result.code = await storeImportCommand(io, source, options);
    });
  storeOptions(store.command('export'))
    .description(
      'Write every stored card to a folder (<dir>/<tenant>/<agent>.json) or a snapshot file (.json) for store.snapshot.',
    )
    .argument('<target>', 'a folder, or a file ending in .json')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--force', 'overwrite files that exist')
    .action(async (target: string, options) => {
      result.code = await storeExportCommand(io, target, options);
    });
}

/**
 * Commander's colour rule for its own output (its `useColor`, then the stream's terminal), read
 * from the injected environment and streams instead of the process's.
 */
function commanderColour(env: CliIO['env'], stream: CliIO['stdout']): boolean {
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined) return true;
  return stream.isTTY === true && colourTerminal(env);
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and resolves to the exit code:
 * 0 success, 1 errors found or verification failed, 2 usage or I/O error.
 */
export async function run(argv: readonly string[], unguarded: CliIO): Promise<number> {
  // Every byte a command writes passes the terminal guard, whatever it quotes (issue 11, item 6),
  // and in GitHub Actions a card's text cannot run as a workflow command (issue 36, item 1).
  const guard = { workflowCommands: unguarded.env.GITHUB_ACTIONS === 'true' };
  const io: CliIO = {
    ...unguarded,
    stdout: guardStream(unguarded.stdout, guard),
    stderr: guardStream(unguarded.stderr, guard),
  };
  const result = { code: 0 };
  const program = createProgram(io, result);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return result.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit with code 0; commander has already printed usage errors.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof CardInputError) {
      io.stderr.write(`${formatFindings(error.findings, createPainter({ ...io, stdout: io.stderr }))}\n`);
    }
    if (error instanceof CliError) {
      io.stderr.write(`agent-card: ${visible(error.message)}\n`);
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`agent-card: ${visible(message)}\n`);
    if (io.env.DEBUG?.split(',').includes('agent-card') && error instanceof Error && error.stack) {
      io.stderr.write(`${error.stack}\n`);
    }
    return 2;
  }
}
