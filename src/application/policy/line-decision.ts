import type { PartDecision, PolicyVerdict, RiskLevel } from '../../domain/policy/policy-types.js';
import { riskSeverity, verdictSeverity, type Judgement } from './rules/judgement.js';

export interface JudgedPart extends Judgement {
  readonly text: string;
}

/** What the whole line comes to, built while its parts are judged (no second pass over the parts). */
export interface LineOutcome {
  readonly verdict: PolicyVerdict;
  readonly risk: RiskLevel;
  readonly reasons: readonly string[];
  readonly matchedRule: string;
  readonly parts: readonly PartDecision[];
  readonly filesPotentiallyTouched: readonly string[];
  readonly networkRequested: boolean;
  readonly executesProjectCode: boolean;
}

const RISKS: readonly RiskLevel[] = ['low', 'medium', 'high', 'blocked'];
const VERDICTS: readonly PolicyVerdict[] = ['allow', 'approval_required', 'deny'];

/**
 * Folds judged parts into the line's decision as they arrive, in line order. The strictest verdict wins, then the
 * highest risk, then the earliest part. The reasons are those of the parts with the winning verdict, highest risk
 * first and in line order within a risk (what a stable sort by verdict then risk gave), each once. Reasons are kept
 * per (verdict, risk) bucket so nothing is sorted or walked again at the end.
 */
export class LineDecision {
  private decisive: Judgement | null = null;
  private highestRisk: RiskLevel = 'low';
  private readonly parts: PartDecision[] = [];
  private readonly reasonBuckets: string[][][] = VERDICTS.map(() => RISKS.map(() => []));
  private readonly files = new Set<string>();
  private network = false;
  private projectCode = false;

  add(part: JudgedPart): void {
    this.addJudgement(part.text, part);
  }

  /** The judgement of the part of the line whose text is `text` (no part object is built for it). */
  addJudgement(text: string, part: Judgement): void {
    const decisive = this.decisive;
    if (
      decisive === null ||
      verdictSeverity(part.verdict) > verdictSeverity(decisive.verdict) ||
      (part.verdict === decisive.verdict && riskSeverity(part.risk) > riskSeverity(decisive.risk))
    ) {
      this.decisive = part;
    }
    if (riskSeverity(part.risk) > riskSeverity(this.highestRisk)) this.highestRisk = part.risk;
    (this.reasonBuckets[verdictSeverity(part.verdict)]?.[riskSeverity(part.risk)] as string[]).push(...part.reasons);
    for (const file of part.filesTouched) this.files.add(file);
    if (part.networkRequested) this.network = true;
    if (part.executesProjectCode) this.projectCode = true;
    this.parts.push({ text, verdict: part.verdict, rule: part.rule, reason: part.reasons[0] ?? '' });
  }

  /** The decision; at least one part must have been added. */
  outcome(): LineOutcome {
    const decisive = this.decisive;
    if (decisive === null) throw new Error('a line decision needs at least one judged part');
    const verdict = decisive.verdict;
    const buckets = this.reasonBuckets[verdictSeverity(verdict)] as string[][];
    const reasons = new Set<string>();
    for (let risk = buckets.length - 1; risk >= 0; risk -= 1)
      for (const reason of buckets[risk] as string[]) reasons.add(reason);
    return {
      verdict,
      risk: verdict === 'deny' ? 'blocked' : this.highestRisk,
      reasons: [...reasons],
      matchedRule: decisive.rule,
      parts: this.parts,
      filesPotentiallyTouched: [...this.files],
      networkRequested: this.network,
      executesProjectCode: this.projectCode,
    };
  }
}
