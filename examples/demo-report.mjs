// The lines `pnpm demo` prints about the example cards, apart from the demo so that a test can pin
// them: a pass for a template card says production refuses it (a bare "✓ … 14 errors" would read
// as a contradiction), and a failure says what went wrong instead of repeating the pass's words.

/** One check line: `  ✓ what  detail` (✗ when not ok); `paint` colours the mark and the detail. */
export function checkLine(ok, what, detail = '', paint = {}) {
  const { green = String, red = String, dim = String } = paint;
  return `  ${ok ? green('✓') : red('✗')} ${what}${detail ? dim(`  ${detail}`) : ''}`;
}

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The check for a starter template (`examples/cards/<name>.json`) validated under `production`:
 * it passes when production refuses it for its template content (rule `template-content`) and
 * finds nothing else but info.
 */
export function templateCheck(file, findings) {
  const name = file.replace(/\.json$/, '');
  const template = findings.filter((finding) => finding.rule === 'template-content');
  const others = findings.filter((finding) => finding.rule !== 'template-content' && finding.severity !== 'info');
  const errors = template.filter((finding) => finding.severity === 'error').length;
  if (template.length === 0) {
    return {
      ok: false,
      what: `${file}: production does not see the "${name}" template in it`,
      detail: others.length === 0 ? 'no finding at all' : `other findings: ${ruleList(others)}`,
    };
  }
  if (others.length > 0) {
    return {
      ok: false,
      what: `${file}: production finds more wrong with it than its "${name}" template content`,
      detail: `${plural(others.length, 'other finding')}: ${ruleList(others)}`,
    };
  }
  return {
    ok: true,
    what: `${file}: production refuses it only as the "${name}" template (expected)`,
    detail: `${errors} template-content errors to replace, no other finding`,
  };
}

/** `rule (severity)` for each distinct rule, in order. */
function ruleList(findings) {
  return [...new Set(findings.map((finding) => `${finding.rule} (${finding.severity})`))].join(', ');
}

/**
 * The check for `examples/cards/broken/`: each card is named after the rule it must trigger;
 * `missed` are the rules whose card did not.
 */
export function brokenCheck(total, missed) {
  return {
    ok: missed.length === 0,
    what: `broken/: ${total - missed.length} of ${total} cards trigger the rule they are named after`,
    detail: missed.join(', '),
  };
}

/**
 * What the demo prints after a service's checks, when the service is stopped: how to run it again
 * on port 3000 and the pages to open there. It never shows the free port the demo used, which is
 * closed by then.
 */
export function browseLines(service, paths) {
  const env = Object.entries(service.env ?? {}).map(([name, value]) => `${name}=${value} `);
  return [
    `  stopped. To browse it: PORT=3000 ${env.join('')}node ${service.script}, then open`,
    ...paths.map((path) => `      http://localhost:3000${path}`),
  ];
}
