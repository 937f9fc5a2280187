import { agentChat } from '../../../lib/agent-chat';

export const POST = (request) => agentChat(request);
export const OPTIONS = POST;
