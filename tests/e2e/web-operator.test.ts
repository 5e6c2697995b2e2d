import { TOKEN, startTestServer, type TestServer } from './http-harness';
import { callTool, web } from './web-harness';

const OPERATOR_TOKEN = 'operator-token-that-is-longer-than-thirty-two-chars';

describe('operator approval route', () => {
  let server: TestServer;

  afterEach(async () => {
    await server.stop();
  });

  async function planNeedingApproval(): Promise<{ sessionId: string; planId: string; approvalId: string }> {
    const plan = await callTool(server, 'terminal_plan', { command: 'sleep 0' });
    expect(plan.structuredContent.policy).toMatchObject({ verdict: 'approval_required' });
    return {
      sessionId: String(plan.structuredContent.session_id),
      planId: String(plan.structuredContent.id),
      approvalId: String(plan.structuredContent.approval_id),
    };
  }

  it('lets the operator, and only the operator token, approve a plan the model may not approve', async () => {
    server = await startTestServer({ TERM_MCP_APPROVAL: 'operator', TERM_MCP_OPERATOR_TOKEN: OPERATOR_TOKEN });
    const { sessionId, planId, approvalId } = await planNeedingApproval();
    const byModel = await callTool(server, 'terminal_approve', { session_id: sessionId, plan_id: planId });
    expect(byModel.isError).toBe(true);
    expect(byModel.structuredContent.code).toBe('operator_approval_required');

    const pending = await web(server, 'GET', '/operator/approvals', { token: OPERATOR_TOKEN });
    expect(pending.json?.approvals).toEqual([
      expect.objectContaining({ approval_id: approvalId, session_id: sessionId, plan_id: planId, command: 'sleep 0' }),
    ]);

    const path = `/operator/approvals/${approvalId}`;
    const refused = [
      await web(server, 'POST', path, { token: null }),
      await web(server, 'POST', path, { token: TOKEN }),
      await web(server, 'POST', path, { token: `${OPERATOR_TOKEN}x` }),
    ];
    expect(refused.map((reply) => [reply.status, reply.json?.error])).toEqual([
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [401, 'unauthorized'],
    ]);

    const approved = await web(server, 'POST', path, { token: OPERATOR_TOKEN });
    expect(approved.status).toBe(200);
    expect(approved.json).toEqual({
      approved: true,
      approval_id: approvalId,
      plan_id: planId,
      session_id: sessionId,
      command: 'sleep 0',
      approved_at: expect.any(String),
    });
    expect(approved.headers.get('deprecation')).toBeNull();

    const executed = await callTool(server, 'terminal_execute', { session_id: sessionId, plan_id: planId });
    expect(executed.structuredContent).toMatchObject({ status: 'succeeded', approved: true });

    const reused = await web(server, 'POST', path, { token: OPERATOR_TOKEN });
    expect(reused.status).toBe(404);
    expect(reused.json?.error).toBe('approval_not_found');
  });

  it('answers 404 for an approval id that was never issued', async () => {
    server = await startTestServer({ TERM_MCP_OPERATOR_TOKEN: OPERATOR_TOKEN });
    const reply = await web(server, 'POST', '/operator/approvals/apr_unknown', { token: OPERATOR_TOKEN });
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ error: 'approval_not_found', message: 'unknown, used or expired approval' });
  });

  it('does not exist without TERM_MCP_OPERATOR_TOKEN, even for the MCP token', async () => {
    server = await startTestServer();
    const { approvalId } = await planNeedingApproval();
    const reply = await web(server, 'POST', `/operator/approvals/${approvalId}`, { token: TOKEN });
    expect(reply.status).toBe(404);
    expect(reply.json?.error).toBe('not_found');
  });
});
