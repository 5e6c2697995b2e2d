import type { ToolDefinition } from '../tools/tool-definition.js';
import type { TerminalToolkit } from './terminal-toolkit.js';
import { terminalApproveTool } from './tools/terminal-approve-tool.js';
import { terminalCancelTool } from './tools/terminal-cancel-tool.js';
import { terminalExecuteTool } from './tools/terminal-execute-tool.js';
import { terminalInputTool } from './tools/terminal-input-tool.js';
import { terminalPauseTool } from './tools/terminal-pause-tool.js';
import { terminalPlanTool } from './tools/terminal-plan-tool.js';
import { terminalReadTool } from './tools/terminal-read-tool.js';
import { terminalReceiptTool } from './tools/terminal-receipt-tool.js';
import { terminalResumeTool } from './tools/terminal-resume-tool.js';
import { terminalRetryTool } from './tools/terminal-retry-tool.js';
import { terminalSessionCloseTool } from './tools/terminal-session-close-tool.js';
import { terminalSessionsTool } from './tools/terminal-sessions-tool.js';
import { terminalOpenTool } from './tools/terminal-open-tool.js';
import { terminalScreenTool } from './tools/terminal-screen-tool.js';

/** The terminal tools in catalog order: the seed's eight first (seed §3), then ours. */
export function terminalTools(kit: TerminalToolkit): ToolDefinition[] {
  return [
    terminalPlanTool(kit),
    terminalApproveTool(kit),
    terminalExecuteTool(kit),
    terminalRetryTool(kit),
    terminalPauseTool(kit),
    terminalResumeTool(kit),
    terminalCancelTool(kit),
    terminalReceiptTool(kit),
    terminalReadTool(kit),
    terminalInputTool(kit),
    terminalSessionCloseTool(kit),
    terminalSessionsTool(kit),
    terminalOpenTool(kit),
    terminalScreenTool(kit),
  ];
}
