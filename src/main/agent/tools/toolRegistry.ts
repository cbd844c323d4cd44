import type { AgentTool } from './agentTool';
import { editFileTool } from './editFileTool';
import { listDirectoryTool } from './listDirectoryTool';
import { listWindowsTool } from './listWindowsTool';
import { readFileTool } from './readFileTool';
import { readScreenTextTool } from './readScreenTextTool';
import { runCommandTool } from './runCommandTool';
import { screenshotTool } from './screenshotTool';
import { terminalHistoryTool } from './terminalHistoryTool';
import { uiActionTool } from './uiActionTool';
import { writeFileTool } from './writeFileTool';

/** Every tool the agent offers the model, in the order the model sees them. A new tool is one module and one line here. */
export const AGENT_TOOLS: readonly AgentTool[] = [runCommandTool, terminalHistoryTool, readFileTool, listDirectoryTool, editFileTool, writeFileTool, screenshotTool, readScreenTextTool, listWindowsTool, uiActionTool];
