import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { AgentCardModuleOptions } from './agent-card.options';

/** `forRoot` / `forRootAsync` of `AgentCardModule`, with `isGlobal`; a `useClass` has `createAgentCardOptions()`. */
export const {
  ConfigurableModuleClass: AgentCardConfigurableModule,
  MODULE_OPTIONS_TOKEN: AGENT_CARD_MODULE_OPTIONS,
  OPTIONS_TYPE: AGENT_CARD_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: AGENT_CARD_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<AgentCardModuleOptions>({ moduleName: 'AgentCard' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createAgentCardOptions')
  .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
  .build();

/** What `AgentCardModule.forRoot` accepts: {@link AgentCardModuleOptions} plus `isGlobal`. */
export type AgentCardModuleForRootOptions = typeof AGENT_CARD_OPTIONS_TYPE;
/** What `AgentCardModule.forRootAsync` accepts: `imports`, `inject`, `useFactory | useClass | useExisting`, `isGlobal`. */
export type AgentCardModuleAsyncOptions = typeof AGENT_CARD_ASYNC_OPTIONS_TYPE;
