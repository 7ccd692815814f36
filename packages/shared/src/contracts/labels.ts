import type { Language } from '../language.ts';

/**
 * The contracts' field labels that no resource definition names (`codedText('TEXT_TOO_LONG', { label: '发票号码',
 * max: 50 })`, `safeText('商户号', 32)`), in the other UI languages. The definitions' label translator
 * (resources/labels.ts) reads them after the definitions' own labels, so a contract message renders its label
 * the same way a definition's does; a label a definition already translates is not repeated here. Wording
 * follows the web's screens for the same field. contracts/labels.test.ts reads the contracts' sources and fails
 * when a Chinese label has no translation, or when an entry here is no longer used.
 */
export const CONTRACT_LABELS: Record<string, Record<Exclude<Language, 'zh'>, string>> = {
  // e-mail settings and sending (email.ts)
  发件人邮箱: { en: 'Sender address', es: 'Remitente', ja: '送信者アドレス' },
  发件用户名: { en: 'SMTP user name', es: 'Usuario SMTP', ja: 'SMTPユーザー名' },
  SMTP地址: { en: 'SMTP host', es: 'Servidor SMTP', ja: 'SMTPサーバー' },
  标题: { en: 'Subject', es: 'Asunto', ja: '件名' },
  搜索内容: { en: 'Search text', es: 'Texto de búsqueda', ja: '検索内容' },
  // code generator (generator.ts)
  字段标签: { en: 'Field label', es: 'Etiqueta del campo', ja: '項目ラベル' },
  作者: { en: 'Author', es: 'Autor', ja: '作成者' },
  // scheduled jobs and report tasks (jobs.ts, operations/tasks.ts)
  任务名称: { en: 'Job name', es: 'Nombre de la tarea', ja: 'タスク名' },
  Bean名称: { en: 'Bean', es: 'Bean', ja: 'Bean名' },
  Cron表达式: { en: 'Cron expression', es: 'Expresión cron', ja: 'cron式' },
  允许并发: { en: 'Allow overlapping runs', es: 'Permitir ejecuciones simultáneas', ja: '同時実行の許可' },
  执行时间: { en: 'Schedule', es: 'Programación', ja: '実行時刻' },
  任务参数: { en: 'Task parameters', es: 'Parámetros de la tarea', ja: 'タスクパラメーター' },
  属性: { en: 'Property', es: 'Propiedad', ja: 'プロパティ' },
  // cache (monitor.ts)
  命名空间: { en: 'Namespace', es: 'Espacio de nombres', ja: '名前空間' },
  键: { en: 'Key', es: 'Clave', ja: 'キー' },
  键的搜索条件: { en: 'Key pattern', es: 'Patrón de clave', ja: 'キーの検索条件' },
  // data sources (operations/dataSources.ts)
  数据源名称: { en: 'Data source name', es: 'Nombre de la fuente de datos', ja: 'データソース名' },
  数据源编码: { en: 'Data source code', es: 'Código de la fuente de datos', ja: 'データソースコード' },
  数据源类型: { en: 'Data source type', es: 'Tipo de fuente de datos', ja: 'データソースの種類' },
  字符编码: { en: 'Encoding', es: 'Codificación', ja: '文字コード' },
  数据库类型: { en: 'Database kind', es: 'Tipo de base de datos', ja: 'データベース種類' },
  数据库地址: { en: 'Database host', es: 'Servidor de la base de datos', ja: 'データベースのアドレス' },
  数据库账号: { en: 'Database user', es: 'Usuario de la base de datos', ja: 'データベースのアカウント' },
  数据库密码: { en: 'Database password', es: 'Contraseña de la base de datos', ja: 'データベースのパスワード' },
  数据库名称: { en: 'Database', es: 'Base de datos', ja: 'データベース名' },
  查询语句: { en: 'Query', es: 'Consulta', ja: 'クエリ' },
  文件: { en: 'File', es: 'Archivo', ja: 'ファイル' },
  数据集: { en: 'Dataset', es: 'Conjunto de datos', ja: 'データセット' },
  字段: { en: 'Field', es: 'Campo', ja: '項目' },
  // Alipay (payment.ts)
  应用ID: { en: 'App ID', es: 'ID de aplicación', ja: 'アプリID' },
  商户号: { en: 'Merchant number', es: 'Número de comercio', ja: '加盟店番号' },
  商户私钥: { en: 'Merchant private key', es: 'Clave privada del comercio', ja: '加盟店秘密鍵' },
  支付宝公钥: { en: 'Alipay public key', es: 'Clave pública de Alipay', ja: 'Alipay公開鍵' },
  支付宝网关: { en: 'Alipay gateway', es: 'Pasarela de Alipay', ja: 'Alipayゲートウェイ' },
  回调地址: { en: 'Callback URL', es: 'URL de retorno', ja: 'コールバックURL' },
  商品名称: { en: 'Product name', es: 'Nombre del producto', ja: '商品名' },
  商品描述: { en: 'Description', es: 'Descripción', ja: '商品説明' },
  订单号: { en: 'Order number', es: 'Número de pedido', ja: '注文番号' },
  // payroll inputs (payrollInputs.ts)
  查询条件: { en: 'Search condition', es: 'Condición de búsqueda', ja: '検索条件' },
  // settlement statements (settlement.ts)
  金额: { en: 'Amount', es: 'Importe', ja: '金額' },
  发票号码: { en: 'Invoice number', es: 'Número de factura', ja: '請求書番号' },
  // social-insurance reconciliation (siAdjust.ts)
  类型: { en: 'Type', es: 'Tipo', ja: '種類' },
  要确认的差异: { en: 'the differences to accept', es: 'las diferencias por aceptar', ja: '確認する差異' },
  原因: { en: 'Reason', es: 'Motivo', ja: '理由' },
  '原因（至少2个字）': { en: 'Reason (at least 2 characters)', es: 'Motivo (al menos 2 caracteres)', ja: '理由（2文字以上）' },
  // storage settings (storage.ts)
  空间名称: { en: 'Bucket', es: 'Bucket', ja: 'バケット名' },
  外链域名: { en: 'Domain', es: 'Dominio', ja: '公開ドメイン' },
  服务地址: { en: 'Endpoint', es: 'Servicio', ja: 'エンドポイント' },
};
