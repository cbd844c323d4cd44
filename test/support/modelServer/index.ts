export { startScriptedModelServer } from './scriptedModelServer';
export type { ModelRequestBody, RecordedRequest, Responder, ScriptedModelServer } from './scriptedModelServer';
export type { AnthropicErrorType, HttpReply, ReplyPart, ReplyUsage, ScriptedReply, StopReason, StreamReply } from './script';
