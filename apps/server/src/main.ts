import { configFromEnv } from './config.ts';
import { buildApp } from './app.ts';
import { seedDatabase } from './seed/index.ts';
import { seedDemoData } from './seed/demo.ts';

/** Start the server: configuration from the environment, migrations, seed, then serve API + web. */
async function main() {
  const config = configFromEnv();
  const app = await buildApp(config);
  const seeded = await seedDatabase(app.ctx.db, app.ctx.dialect, config);
  if (config.demoData) await seedDemoData(app.ctx.db, app.ctx.dialect);
  if (seeded.adminPasswordShown) {
    console.log(`\n  管理员账号 admin 的初始密码 / initial admin password: ${seeded.adminPasswordShown}\n`);
  }
  await app.listen({ port: config.port, host: config.host });
  const shutdown = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
