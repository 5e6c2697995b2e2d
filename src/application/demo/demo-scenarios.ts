/**
 * The seed's model-free demo scenarios (`demo.py`), shared by `term-mcp demo` and `GET /demo/scenarios`.
 * `title`/`description` are the names the UI reads; `label`/`outcome` are the seed's names for the same two texts,
 * kept so the seed's UI works unchanged. `shows` says what trying it demonstrates with the default policy
 * (tests/application/demo/demo-scenarios.test.ts plans each one and checks it).
 */
export interface DemoScenario {
  readonly id: string;
  readonly title: string;
  readonly command: string;
  readonly description: string;
  readonly label: string;
  readonly outcome: string;
  readonly shows: string;
}

function scenario(id: string, title: string, command: string, description: string, shows: string): DemoScenario {
  return Object.freeze({ id, title, command, description, label: title, outcome: description, shows });
}

export const DEMO_SCENARIOS: readonly DemoScenario[] = Object.freeze([
  scenario(
    'inspect-workspace',
    'Inspect workspace',
    'pwd',
    'A low-risk successful receipt',
    'The plan is allowed at low risk with no approval; executing it succeeds (exit 0) and returns a signed receipt.',
  ),
  scenario(
    'approval-cancel',
    'Approval + cancel',
    'sleep 15',
    'Approve, pause, resume, then cancel a bounded process',
    'The plan needs an explicit approval (medium risk, long-running); once approved it runs in its own process group, can be paused and resumed, and cancelling it yields a signed "cancelled" receipt with the signal.',
  ),
  scenario(
    'catalog-overview',
    'List top-level files',
    'ls -la',
    'Read-only output without a model key',
    'A read-only command allowed without approval; its output lands in the receipt, and nothing needs the DeepSeek key.',
  ),
]);
