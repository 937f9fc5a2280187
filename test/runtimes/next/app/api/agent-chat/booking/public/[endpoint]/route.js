import { agentChat } from '../../../../../../lib/agent-chat';

export const GET = (request) => agentChat(request);
export const POST = GET;
export const OPTIONS = GET;
