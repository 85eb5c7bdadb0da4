import type { AgentCard, AgentSkill } from '@agent-card/core';

export declare const TOKEN: string;
export declare const CARD: AgentCard;
export declare const EXTENDED_SKILL: AgentSkill;
