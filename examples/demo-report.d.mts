/** What the demo reads of a finding. */
interface Finding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
}
export interface Check {
  ok: boolean;
  what: string;
  detail: string;
}
type Paint = (text: string) => string;

export declare function checkLine(
  ok: boolean,
  what: string,
  detail?: string,
  paint?: { green?: Paint; red?: Paint; dim?: Paint },
): string;
export declare function templateCheck(file: string, findings: readonly Finding[]): Check;
export declare function brokenCheck(total: number, missed: readonly string[]): Check;
export declare function browseLines(
  service: { script: string; env?: Record<string, string> },
  paths: readonly string[],
): string[];
