// A NestJS 11 application written as plain CommonJS, as many existing Nest services are compiled:
// it require()s the CJS build of @agent-card/nest. Prints one JSON line with what it served.
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { AgentCardModule, AgentSkills, Skill } = require('@agent-card/nest');

const decorate = (decorators, target, key) => {
  if (key === undefined) return decorators.reduceRight((cls, d) => d(cls) ?? cls, target);
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  for (const d of [...decorators].reverse()) d(target, key, descriptor);
  return undefined;
};

class ReportsController {
  daily() {
    return { ok: true };
  }
}
decorate([Get('daily'), Skill({ description: 'Builds the daily sales report.' })], ReportsController.prototype, 'daily');
const Reports = decorate([AgentSkills({ tags: ['reports'] }), Controller('reports')], ReportsController);

class AppModule {}
const App = decorate(
  [
    Module({
      imports: [
        AgentCardModule.forRoot({
          definition: {
            name: 'Reports',
            description: 'Builds sales reports for the Acme back office.',
            version: '1.0.0',
            url: 'http://127.0.0.1:4000/a2a',
            binding: 'JSONRPC',
          },
          profile: 'development',
          logger: { warn() {} },
        }),
      ],
      controllers: [Reports],
    }),
  ],
  AppModule,
);

(async () => {
  const app = await NestFactory.create(App, { logger: false });
  app.setGlobalPrefix('api');
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const card = await fetch(`${base}/.well-known/agent-card.json`);
  const route = await fetch(`${base}/api/reports/daily`);
  console.log(
    JSON.stringify({
      nest: require('@nestjs/core/package.json').version,
      library: require.resolve('@agent-card/nest'),
      status: card.status,
      contentType: card.headers.get('content-type'),
      card: await card.json(),
      route: route.status,
    }),
  );
  await app.close();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
