import type { AgentTool } from './agentTool';
import { computerTool } from './computerTool';
import { editFileTool } from './editFileTool';
import { listDirectoryTool } from './listDirectoryTool';
import { listenTool } from './listenTool';
import { listWindowsTool } from './listWindowsTool';
import { readFileTool } from './readFileTool';
import { readScreenTextTool } from './readScreenTextTool';
import { runCommandTool } from './runCommandTool';
import { screenshotTool } from './screenshotTool';
import { searchHistoryTool } from './searchHistoryTool';
import { spawnAgentTool } from '../children/spawnAgentTool';
import { terminalHistoryTool } from './terminalHistoryTool';
import { uiActionTool } from './uiActionTool';
import { writeFileTool } from './writeFileTool';

/**
 * Every tool the agent offers the model, in the order the model sees them. A new tool is one
 * module and one line here. The computer-use tool stands in for screenshot and ui_action
 * when the model can use it (ToolDispatcher.definitions).
 */
export const AGENT_TOOLS: readonly AgentTool[] = [runCommandTool, terminalHistoryTool, searchHistoryTool, readFileTool, listDirectoryTool, editFileTool, writeFileTool, screenshotTool, readScreenTextTool, listWindowsTool, uiActionTool, computerTool, listenTool, spawnAgentTool];
