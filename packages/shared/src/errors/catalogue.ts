/**
 * The error catalogue: every message the API sends, by code, in the four UI languages.
 *
 * A template names its parameters in braces (`{label}`); the Chinese text is the spec's binding wording and
 * the server's answer without (or with an unknown) Accept-Language, byte for byte. The server throws
 * `new AppError(code, params)` (apps/server/src/core/errors.ts) and renders `message` in the request's
 * language. Call sites not converted yet throw a Chinese message: `codeOfMessage()` finds its entry (the
 * parameters are read back from the text) so it still gets a code and a translation.
 *
 * Parameters that are Chinese field labels (`label`, `field`, `resource`, `parent`) or a definition's own sentence
 * (`text`) are translated when the renderer is given a label translator; others (user input, numbers, ids) are kept as they are.
 */
import type { Language } from '../language.ts';

export interface CatalogueEntry {
  /** The HTTP status an AppError of this code answers with. */
  status: number;
  zh: string;
  en: string;
  es: string;
  ja: string;
}

export const ERROR_CATALOGUE = {
  // ---- generic ------------------------------------------------------------------------------------------
  INVALID_REQUEST: { status: 400, zh: '请求参数错误', en: 'Invalid request', es: 'Solicitud no válida', ja: '不正なリクエストです' },
  BAD_REQUEST: { status: 400, zh: '参数错误', en: 'Invalid request parameters', es: 'Parámetros de solicitud no válidos', ja: 'リクエストパラメーターが不正です' },
  INVALID_JSON: { status: 400, zh: '请求体不是合法的JSON', en: 'The request body is not valid JSON', es: 'El cuerpo de la solicitud no es JSON válido', ja: 'リクエスト本文が正しいJSONではありません' },
  BODY_NOT_OBJECT: { status: 400, zh: '请求体必须是JSON对象', en: 'The request body must be a JSON object', es: 'El cuerpo de la solicitud debe ser un objeto JSON', ja: 'リクエスト本文はJSONオブジェクトである必要があります' },
  BODY_TOO_LARGE: { status: 413, zh: '请求体过大', en: 'The request body is too large', es: 'El cuerpo de la solicitud es demasiado grande', ja: 'リクエスト本文が大きすぎます' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, zh: '不支持的请求类型', en: 'Unsupported content type', es: 'Tipo de contenido no admitido', ja: 'サポートされていないコンテンツタイプです' },
  TOO_MANY_REQUESTS: { status: 429, zh: '请求过于频繁，请稍后再试', en: 'Too many requests, please try again later', es: 'Demasiadas solicitudes; inténtelo más tarde', ja: 'リクエストが多すぎます。しばらくしてから再試行してください' },
  INTERNAL_ERROR: { status: 500, zh: '服务器内部错误，请联系管理员', en: 'Internal server error, please contact the administrator', es: 'Error interno del servidor; contacte con el administrador', ja: 'サーバー内部エラーです。管理者に連絡してください' },
  API_NOT_FOUND: { status: 404, zh: '接口不存在', en: 'No such API endpoint', es: 'El punto de acceso de la API no existe', ja: 'APIエンドポイントが存在しません' },
  NOT_FOUND: { status: 404, zh: '数据不存在', en: 'The record does not exist', es: 'El registro no existe', ja: 'データが存在しません' },
  FORBIDDEN: { status: 403, zh: '没有权限执行此操作', en: 'You are not allowed to do this', es: 'No tiene permiso para realizar esta operación', ja: 'この操作を実行する権限がありません' },
  UNAUTHORIZED: { status: 401, zh: '登录状态已过期，请重新登录', en: 'Your session has expired, please log in again', es: 'Su sesión ha caducado; inicie sesión de nuevo', ja: 'ログインの有効期限が切れました。再度ログインしてください' },
  NOT_LOGGED_IN: { status: 401, zh: '未登录或登录状态已过期', en: 'Not logged in, or the session has expired', es: 'No ha iniciado sesión o la sesión ha caducado', ja: '未ログインか、ログインの有効期限が切れています' },
  PASSWORD_CHANGE_REQUIRED: { status: 403, zh: '请先修改初始密码', en: 'Please change your initial password first', es: 'Cambie primero su contraseña inicial', ja: '最初に初期パスワードを変更してください' },
  ACCOUNT_DISABLED: { status: 400, zh: '账号已停用，请联系管理员', en: 'This account is disabled, please contact the administrator', es: 'La cuenta está desactivada; contacte con el administrador', ja: 'アカウントは無効になっています。管理者に連絡してください' },

  // ---- payroll inputs chosen, not typed: agent, person, caps, the 60,000 rule (modules/payroll/inputRules, deductionCaps, simplifiedDeduction)
  TAX_INPUT_AGENT_UNKNOWN: { status: 400, zh: '“{agent}”不是派遣单位（扣缴义务人），请从派遣单位中选择', en: '"{agent}" is not a withholding agent (dispatch company); choose one of the dispatch companies', es: '"{agent}" no es un agente retenedor (empresa de cesión); elija una de las empresas de cesión', ja: '「{agent}」は源泉徴収義務者（派遣元）ではありません。派遣元から選択してください' },
  TAX_INPUT_STAFF_UNKNOWN: { status: 400, zh: '没有身份证号为{idCard}的员工，请从员工中选择', en: 'No staff member has the ID card {idCard}; choose one of the staff', es: 'Ningún empleado tiene el documento {idCard}; elija uno de los empleados', ja: '身分証番号{idCard}の従業員はいません。従業員から選択してください' },
  TAX_INPUT_STAFF_NOT_AT_AGENT: { status: 400, zh: '身份证号为{idCard}的员工不在派遣单位“{agent}”任职', en: 'The staff member with the ID card {idCard} is not employed under the withholding agent "{agent}"', es: 'El empleado con el documento {idCard} no trabaja para el agente retenedor "{agent}"', ja: '身分証番号{idCard}の従業員は派遣元「{agent}」に在籍していません' },
  STAFF_EXTRA_EMPTY: { status: 400, zh: '请填写加班费或扣款', en: 'Please enter the overtime pay or the deduction', es: 'Introduzca las horas extra o la deducción', ja: '残業代または控除額を入力してください' },
  STAFF_EXTRA_STAFF_NOT_AT_COMPANY: { status: 400, zh: '“{company}”没有身份证号为{idCard}的员工', en: '"{company}" has no staff member with the ID card {idCard}', es: '"{company}" no tiene ningún empleado con el documento {idCard}', ja: '「{company}」に身分証番号{idCard}の従業員はいません' },
  STAFF_EXTRA_COMPANY_AMBIGUOUS: { status: 400, zh: '身份证号为{idCard}的员工在{count}个单位任职，请选择单位', en: 'The staff member with the ID card {idCard} works at {count} companies; choose the company', es: 'El empleado con el documento {idCard} trabaja en {count} empresas; elija la empresa', ja: '身分証番号{idCard}の従業員は{count}社に在籍しています。会社を選択してください' },
  DEDUCTION_CAP_MONTHLY: { status: 400, zh: '{label}每月最多{cap}元', en: '{label} is at most {cap} yuan a month', es: '{label}: como máximo {cap} yuanes al mes', ja: '{label}は月{cap}元までです' },
  DEDUCTION_CAP_PER_CHILD: { status: 400, zh: '{label}每名子女每月最多{perChild}元，{children}名子女每月最多{cap}元', en: '{label} is at most {perChild} yuan per child a month: {cap} yuan for {children} child(ren)', es: '{label}: como máximo {perChild} yuanes por hijo al mes, {cap} yuanes para {children} hijo(s)', ja: '{label}は子1人につき月{perChild}元まで、子{children}人で月{cap}元までです' },
  DEDUCTION_CAP_ELDERLY_SHARED: { status: 400, zh: '赡养老人（非独生子女）本人分摊每月最多{cap}元', en: 'Elderly support (not an only child): the own share is at most {cap} yuan a month', es: 'Manutención de mayores (sin ser hijo único): la parte propia es como máximo {cap} yuanes al mes', ja: '高齢者扶養（一人っ子以外）の本人分担は月{cap}元までです' },
  DEDUCTION_CAP_RENT_TIER: { status: 400, zh: '住房租金（第{tier}类城市）每月最多{cap}元', en: 'Housing rent (city category {tier}) is at most {cap} yuan a month', es: 'Alquiler de vivienda (ciudad de categoría {tier}): como máximo {cap} yuanes al mes', ja: '住宅賃料（第{tier}類都市）は月{cap}元までです' },
  DEDUCTION_CAP_CONTINUING: { status: 400, zh: '继续教育本月最多{cap}元（学历继续教育每月{degree}元，取得职业资格证书当年另加{certificate}元）', en: 'Continuing education is at most {cap} yuan this month ({degree} yuan a month for a degree, plus {certificate} yuan in the year a certificate is obtained)', es: 'Formación continua: como máximo {cap} yuanes este mes ({degree} yuanes al mes por titulación, más {certificate} yuanes el año en que se obtiene un certificado)', ja: '継続教育は今月{cap}元までです（学歴教育は月{degree}元、資格証書取得年はさらに{certificate}元）' },
  DEDUCTION_CERTIFICATE_ONCE: { status: 400, zh: '职业资格继续教育每年只扣除一次，本年已在{month}扣除', en: 'The certificate part of continuing education is deducted once a year; this year it was deducted in {month}', es: 'La parte de certificado de la formación continua se deduce una vez al año; este año se dedujo en {month}', ja: '資格の継続教育控除は年1回です。今年は{month}に控除済みです' },
  DEDUCTION_LOAN_RENT_EXCLUSIVE: { status: 400, zh: '住房贷款利息和住房租金不能在同一月份同时扣除', en: 'Housing loan interest and housing rent cannot both be deducted in the same month', es: 'Los intereses hipotecarios y el alquiler de vivienda no pueden deducirse en el mismo mes', ja: '住宅ローン利息と住宅賃料は同じ月に同時に控除できません' },
  DEDUCTION_PENSION_YEARLY: { status: 400, zh: '个人养老金每年最多{cap}元，本年在该派遣单位已扣除{used}元，本月最多{left}元', en: 'Private pension is at most {cap} yuan a year; {used} yuan were already deducted this year under this withholding agent, so at most {left} yuan this month', es: 'Pensión privada: como máximo {cap} yuanes al año; este año ya se dedujeron {used} yuanes con este agente retenedor, así que como máximo {left} yuanes este mes', ja: '個人年金は年{cap}元までです。今年この派遣元で{used}元控除済みのため、今月は{left}元までです' },
  DEDUCTION_NO_RULE: { status: 400, zh: '{label}在{month}没有适用的扣除标准，请先在“专项附加扣除标准”中录入', en: '{label} has no deduction standard in force in {month}; enter one in the deduction standards first', es: '{label} no tiene un límite de deducción vigente en {month}; introdúzcalo primero en los límites de deducción', ja: '{label}には{month}に適用される控除基準がありません。先に控除基準を登録してください' },
  SIMPLIFIED_DEDUCTION_MONTHS_MISSING: { status: 400, zh: '不符合6万元减除条件：{year}年在派遣单位“{agent}”缺少{months}的任职受雇记录（需上一年度每月均在本单位任职受雇）', en: 'The 60,000 deduction does not apply: in {year} the withholding agent "{agent}" has no employment record for {months} (every month of the previous year is required)', es: 'La deducción de 60.000 no procede: en {year} el agente retenedor "{agent}" no tiene registro de empleo en {months} (se exige cada mes del año anterior)', ja: '6万元控除の条件を満たしません：{year}年に派遣元「{agent}」で{months}の在籍記録がありません（前年の毎月の在籍が必要です）' },
  SIMPLIFIED_DEDUCTION_INCOME_OVER: { status: 400, zh: '不符合6万元减除条件：{year}年在派遣单位“{agent}”的工资薪金收入{income}元，超过6万元', en: 'The 60,000 deduction does not apply: the wage income of {year} under the withholding agent "{agent}" was {income} yuan, more than 60,000', es: 'La deducción de 60.000 no procede: los ingresos salariales de {year} con el agente retenedor "{agent}" fueron {income} yuanes, más de 60.000', ja: '6万元控除の条件を満たしません：{year}年の派遣元「{agent}」での給与収入は{income}元で、6万元を超えています' },

  // ---- payroll flow errors (issue 21 item 2): 生成/计算/确认/反确认, the month rules, payslips and their import (modules/payroll)
  SALARY_LOCKED: { status: 409, zh: '本月工资已确认，不能修改', en: 'The salaries of this month are confirmed and cannot be changed', es: 'Los salarios de este mes están confirmados y no se pueden modificar', ja: '今月の給与は確定済みのため変更できません' },
  SALARY_LOCKED_DELETE: { status: 409, zh: '本月工资已确认，不能删除', en: 'The salaries of this month are confirmed and cannot be deleted', es: 'Los salarios de este mes están confirmados y no se pueden eliminar', ja: '今月の給与は確定済みのため削除できません' },
  SALARY_CONFIRMED: { status: 409, zh: '本月工资已确认', en: 'The salaries of this month are already confirmed', es: 'Los salarios de este mes ya están confirmados', ja: '今月の給与は既に確定しています' },
  SALARY_NOT_CONFIRMED: { status: 409, zh: '本月工资尚未确认，无需反确认', en: 'The salaries of this month are not confirmed; there is nothing to unconfirm', es: 'Los salarios de este mes no están confirmados; no hay nada que desconfirmar', ja: '今月の給与は未確定のため、確定取消は不要です' },
  SALARY_NOTHING_TO_CALCULATE: { status: 400, zh: '本月没有工资数据，请先生成工资', en: 'There are no salary rows this month; generate the salaries first', es: 'No hay salarios este mes; genere primero los salarios', ja: '今月の給与データがありません。先に給与を生成してください' },
  SALARY_NOTHING_TO_CONFIRM: { status: 400, zh: '本月没有工资数据，不能确认', en: 'There are no salary rows this month; nothing can be confirmed', es: 'No hay salarios este mes; no se puede confirmar', ja: '今月の給与データがないため確定できません' },
  SALARY_NOT_CALCULATED: { status: 409, zh: '有{count}条工资数据尚未计算或在计算后被修改（{names}），请先计算', en: '{count} salary rows are not calculated or were changed after the calculation ({names}); calculate first', es: '{count} filas de salario no están calculadas o cambiaron tras el cálculo ({names}); calcule primero', ja: '{count}件の給与データが未計算か計算後に変更されています（{names}）。先に計算してください' },
  SALARY_NOT_CALCULATED_MORE: { status: 409, zh: '有{count}条工资数据尚未计算或在计算后被修改（{names}等），请先计算', en: '{count} salary rows are not calculated or were changed after the calculation ({names} and others); calculate first', es: '{count} filas de salario no están calculadas o cambiaron tras el cálculo ({names} y otras); calcule primero', ja: '{count}件の給与データが未計算か計算後に変更されています（{names}など）。先に計算してください' },
  SALARY_STALE: { status: 409, zh: '{count}条工资数据在计算后发生了变化（{names}），请重新计算后再确认', en: '{count} salary rows changed after the calculation ({names}); calculate again before confirming', es: '{count} filas de salario cambiaron tras el cálculo ({names}); vuelva a calcular antes de confirmar', ja: '{count}件の給与データが計算後に変わりました（{names}）。再計算してから確定してください' },
  SALARY_STALE_MORE: { status: 409, zh: '{count}条工资数据在计算后发生了变化（{names}等），请重新计算后再确认', en: '{count} salary rows changed after the calculation ({names} and others); calculate again before confirming', es: '{count} filas de salario cambiaron tras el cálculo ({names} y otras); vuelva a calcular antes de confirmar', ja: '{count}件の給与データが計算後に変わりました（{names}など）。再計算してから確定してください' },
  SALARY_ROWS: { status: 400, zh: '以下{count}条工资数据有误，未做任何修改：{rows}', en: 'These {count} salary rows are wrong; nothing was changed: {rows}', es: 'Estas {count} filas de salario tienen errores; no se ha modificado nada: {rows}', ja: '次の{count}件の給与データに誤りがあるため、何も変更していません：{rows}' },
  SALARY_ROWS_MORE: { status: 400, zh: '以下{count}条工资数据有误，未做任何修改：{rows}；等共{count}条', en: 'These {count} salary rows are wrong; nothing was changed: {rows}; {count} in all', es: 'Estas {count} filas de salario tienen errores; no se ha modificado nada: {rows}; {count} en total', ja: '次の{count}件の給与データに誤りがあるため、何も変更していません：{rows}；など計{count}件' },
  SALARY_ROWS_AT_CONFIRM: { status: 409, zh: '以下{count}条工资数据有误，未做任何修改：{rows}', en: 'These {count} salary rows are wrong; nothing was changed: {rows}', es: 'Estas {count} filas de salario tienen errores; no se ha modificado nada: {rows}', ja: '次の{count}件の給与データに誤りがあるため、何も変更していません：{rows}' },
  SALARY_ROWS_AT_CONFIRM_MORE: { status: 409, zh: '以下{count}条工资数据有误，未做任何修改：{rows}；等共{count}条', en: 'These {count} salary rows are wrong; nothing was changed: {rows}; {count} in all', es: 'Estas {count} filas de salario tienen errores; no se ha modificado nada: {rows}; {count} en total', ja: '次の{count}件の給与データに誤りがあるため、何も変更していません：{rows}；など計{count}件' },
  SALARY_ROW_GONE: { status: 409, zh: '工资数据已被删除或重新生成，请刷新', en: 'The salary row was deleted or generated again; please refresh', es: 'La fila de salario se eliminó o se volvió a generar; actualice la página', ja: '給与データは削除されたか再生成されました。再読み込みしてください' },
  SALARY_ONLY_ADJUSTABLE: { status: 400, zh: '只能修改加班费、扣款和全年一次性奖金', en: 'Only the overtime pay, the deduction and the annual bonus can be changed', es: 'Solo se pueden modificar las horas extra, la deducción y la gratificación anual', ja: '変更できるのは残業代、控除額、年間一時賞与だけです' },
  SALARY_ADJUSTMENT_EMPTY: { status: 400, zh: '请提供加班费、扣款或全年一次性奖金', en: 'Please give the overtime pay, the deduction or the annual bonus', es: 'Indique las horas extra, la deducción o la gratificación anual', ja: '残業代、控除額または年間一時賞与を指定してください' },
  SALARY_COMPANY_REQUIRED: { status: 400, zh: '请选择一个单位', en: 'Please choose a company', es: 'Elija una empresa', ja: '会社を選択してください' },
  SALARY_NO_AGENT_ADD: { status: 400, zh: '该单位未设置派遣单位（扣缴义务人），不能添加工资', en: 'This company has no dispatch company (withholding agent) set; salaries cannot be added', es: 'Esta empresa no tiene empresa de cesión (agente retenedor); no se pueden añadir salarios', ja: 'この会社には派遣元（源泉徴収義務者）が設定されていないため、給与を追加できません' },
  SALARY_NO_AGENT_GENERATE: { status: 400, zh: '该单位未设置派遣单位（扣缴义务人），无法生成工资', en: 'This company has no dispatch company (withholding agent) set; salaries cannot be generated', es: 'Esta empresa no tiene empresa de cesión (agente retenedor); no se pueden generar salarios', ja: 'この会社には派遣元（源泉徴収義務者）が設定されていないため、給与を生成できません' },
  SALARY_NO_PAYABLE_STAFF: { status: 400, zh: '该单位本月没有应发工资的员工（按入职、离职日期），无法生成工资', en: 'This company has no staff to be paid this month (by their join and leave dates); salaries cannot be generated', es: 'Esta empresa no tiene empleados a los que pagar este mes (según las fechas de alta y baja); no se pueden generar salarios', ja: 'この会社には今月給与を支払う従業員がいない（入社日・退職日による）ため、給与を生成できません' },
  SALARY_FUTURE_MONTH: { status: 400, zh: '不能处理未来月份（{month}）的工资，当前月份为{current}', en: 'Salaries of a future month ({month}) cannot be processed; the current month is {current}', es: 'No se pueden procesar salarios de un mes futuro ({month}); el mes actual es {current}', ja: '未来の月（{month}）の給与は処理できません。現在の月は{current}です' },
  SALARY_FUTURE_MONTH_FIELD: { status: 400, zh: '不能选择未来月份', en: 'A future month cannot be chosen', es: 'No se puede elegir un mes futuro', ja: '未来の月は選択できません' },
  SALARY_REPORT_CNAME_REQUIRED: { status: 400, zh: '用户中文名称不能为空', en: 'The user’s Chinese name is required', es: 'El nombre chino del usuario es obligatorio', ja: 'ユーザーの中国語名は必須です' },
  SALARY_REPORT_NO_ROWS: { status: 400, zh: '该单位本月没有工资数据，无法导出报表', en: 'This company has no salary rows this month; the report cannot be exported', es: 'Esta empresa no tiene salarios este mes; no se puede exportar el informe', ja: 'この会社には今月の給与データがないため、報告書を出力できません' },
  SALARY_REPORT_NOT_CALCULATED: { status: 400, zh: '有{count}条工资数据尚未计算，请先计算后再导出报表', en: '{count} salary rows are not calculated; calculate before exporting the report', es: '{count} filas de salario no están calculadas; calcule antes de exportar el informe', ja: '{count}件の給与データが未計算です。計算してから報告書を出力してください' },
  SALARY_LATER_CONFIRMED: { status: 409, zh: '以下更晚月份的工资已确认，其个税累计依赖本月，请先反确认：{months}', en: 'The salaries of these later months are confirmed and their cumulative tax depends on this month; unconfirm them first: {months}', es: 'Los salarios de estos meses posteriores están confirmados y su impuesto acumulado depende de este mes; desconfírmelos primero: {months}', ja: '次の後の月の給与は確定済みで、その累計税額は今月に依存します。先に確定を取り消してください：{months}' },
  SALARY_LATER_CARRIES: { status: 409, zh: '{month}的工资已确认并已扣回本月的应扣未扣，请先反确认{month}', en: 'The salaries of {month} are confirmed and recovered this month’s unwithheld tax; unconfirm {month} first', es: 'Los salarios de {month} están confirmados y recuperaron el impuesto no retenido de este mes; desconfirme primero {month}', ja: '{month}の給与は確定済みで、今月の未徴収税額を回収しています。先に{month}の確定を取り消してください' },
  UNCONFIRM_REASON_REQUIRED: { status: 400, zh: '请填写反确认原因', en: 'Please give the reason for unconfirming', es: 'Indique el motivo de la desconfirmación', ja: '確定取消の理由を入力してください' },
  UNCONFIRM_REASON_TOO_LONG: { status: 400, zh: '反确认原因不能超过{max}个字符', en: 'The reason for unconfirming may have at most {max} characters', es: 'El motivo de la desconfirmación admite como máximo {max} caracteres', ja: '確定取消の理由は{max}文字以内にしてください' },
  PAYSLIP_MONTH_NOT_CONFIRMED: { status: 409, zh: '本月工资尚未确认，不能生成工资条', en: 'The salaries of this month are not confirmed; payslips cannot be generated', es: 'Los salarios de este mes no están confirmados; no se pueden generar nóminas', ja: '今月の給与は未確定のため、給与明細を作成できません' },
  PAYSLIP_NOT_FOUND: { status: 404, zh: '工资条不存在', en: 'The payslip does not exist', es: 'La nómina no existe', ja: '給与明細が存在しません' },
  PAYSLIP_ID_CARD_REQUIRED: { status: 400, zh: '请提供身份证号', en: 'Please give the ID card number', es: 'Indique el número de documento de identidad', ja: '身分証番号を指定してください' },
  TAX_OPENING_AGENT_FORBIDDEN: { status: 403, zh: '无权维护该派遣单位的期初数据', en: 'You may not maintain the opening figures of this withholding agent', es: 'No tiene permiso para mantener los datos iniciales de este agente retenedor', ja: 'この派遣元の期首データを管理する権限がありません' },
  TAX_OPENING_MONTH_OUTSIDE_YEAR: { status: 400, zh: '截至月份应在纳税年度{year}年内', en: 'The month the figures run to must lie in the tax year {year}', es: 'El mes hasta el que llegan los datos debe estar en el año fiscal {year}', ja: '締め月は課税年度{year}年内である必要があります' },
  TAX_OPENING_MONTHS_TOO_MANY: { status: 400, zh: '累计任职受雇月份数不能超过截至月份的月数', en: 'The months employed cannot exceed the number of months up to the month the figures run to', es: 'Los meses de empleo no pueden superar el número de meses hasta el mes de cierre de los datos', ja: '累計在籍月数は締め月までの月数を超えられません' },
  TAX_DEDUCTION_AGENT_FORBIDDEN: { status: 403, zh: '无权维护该派遣单位的扣除数据', en: 'You may not maintain the deductions of this withholding agent', es: 'No tiene permiso para mantener las deducciones de este agente retenedor', ja: 'この派遣元の控除データを管理する権限がありません' },
  PAYSLIP_IMPORT_TOO_MANY_ROWS: { status: 400, zh: '工资条文件超过{max}行的上限，请分成多个文件导入', en: 'The payslip file exceeds the limit of {max} rows; split it into several files', es: 'El archivo de nóminas supera el límite de {max} filas; divídalo en varios archivos', ja: '給与明細ファイルが上限の{max}行を超えています。複数のファイルに分けてインポートしてください' },
  PAYSLIP_IMPORT_COLUMN_TWICE: { status: 400, zh: '列“{label}”重复出现', en: 'The column "{label}" appears twice', es: 'La columna "{label}" aparece dos veces', ja: '列「{label}」が重複しています' },
  PAYSLIP_IMPORT_UNKNOWN_COLUMNS: { status: 400, zh: '文件中有无法识别的列：{columns}，请使用工资条模板的列名', en: 'The file has columns that are not recognised: {columns}; use the column names of the payslip template', es: 'El archivo tiene columnas no reconocidas: {columns}; use los nombres de columna de la plantilla de nóminas', ja: 'ファイルに認識できない列があります：{columns}。給与明細テンプレートの列名を使ってください' },
  PAYSLIP_IMPORT_DUPLICATE_ROW: { status: 400, zh: '与第{row}行重复（月份+身份证号相同）', en: 'Duplicates row {row} (same month and ID card)', es: 'Duplica la fila {row} (mismo mes y documento)', ja: '{row}行目と重複しています（月と身分証番号が同じ）' },
  PAYSLIP_IMPORT_ROWS: { status: 400, zh: '{count}行数据有误，未导入任何数据：{rows}', en: '{count} rows are wrong; nothing was imported: {rows}', es: '{count} filas tienen errores; no se ha importado nada: {rows}', ja: '{count}行に誤りがあるため、何もインポートしていません：{rows}' },
  PAYSLIP_IMPORT_ROWS_MORE: { status: 400, zh: '{count}行数据有误，未导入任何数据：{rows}；等共{problems}处', en: '{count} rows are wrong; nothing was imported: {rows}; {problems} problems in all', es: '{count} filas tienen errores; no se ha importado nada: {rows}; {problems} errores en total', ja: '{count}行に誤りがあるため、何もインポートしていません：{rows}；など計{problems}か所' },
  PAYSLIP_IMPORT_ROWS_DIGIT_LOSS: { status: 400, zh: '{count}行数据有误（其中{digitRows}行有超过15位的数字，Excel已丢失末尾数字，请将相应列设置为文本格式），未导入任何数据：{rows}', en: '{count} rows are wrong ({digitRows} of them have numbers of more than 15 digits whose last digits Excel lost; format those columns as text), nothing was imported: {rows}', es: '{count} filas tienen errores ({digitRows} de ellas tienen números de más de 15 dígitos cuyos últimos dígitos Excel perdió; dé formato de texto a esas columnas); no se ha importado nada: {rows}', ja: '{count}行に誤りがあります（うち{digitRows}行は15桁を超える数字で、Excelが末尾の桁を失っています。該当列を文字列形式にしてください）。何もインポートしていません：{rows}' },
  PAYSLIP_IMPORT_ROWS_DIGIT_LOSS_MORE: { status: 400, zh: '{count}行数据有误（其中{digitRows}行有超过15位的数字，Excel已丢失末尾数字，请将相应列设置为文本格式），未导入任何数据：{rows}；等共{problems}处', en: '{count} rows are wrong ({digitRows} of them have numbers of more than 15 digits whose last digits Excel lost; format those columns as text), nothing was imported: {rows}; {problems} problems in all', es: '{count} filas tienen errores ({digitRows} de ellas tienen números de más de 15 dígitos cuyos últimos dígitos Excel perdió; dé formato de texto a esas columnas); no se ha importado nada: {rows}; {problems} errores en total', ja: '{count}行に誤りがあります（うち{digitRows}行は15桁を超える数字で、Excelが末尾の桁を失っています。該当列を文字列形式にしてください）。何もインポートしていません：{rows}；など計{problems}か所' },
  PAYSLIP_IMPORT_AMBIGUOUS: { status: 400, zh: '第{row}行“身份证号”：{idCard}在{month}已有{count}条工资条（名称：{names}），无法确定替换哪一条，请在“名称”列填写对应单位名称，或先删除多余的工资条', en: 'Row {row}, "ID card": {idCard} already has {count} payslips in {month} (names: {names}); which one to replace is unclear: fill the "name" column with the company name, or delete the extra payslips first', es: 'Fila {row}, "documento": {idCard} ya tiene {count} nóminas en {month} (nombres: {names}); no se sabe cuál sustituir: indique el nombre de la empresa en la columna "nombre" o elimine primero las nóminas sobrantes', ja: '{row}行目「身分証番号」：{idCard}には{month}に既に{count}件の給与明細があります（名称：{names}）。どれを置き換えるか決められません。「名称」列に会社名を入力するか、余分な給与明細を先に削除してください' },
  PAYSLIP_IMPORT_UNMATCHED: { status: 400, zh: '{count}行无法确定对应的工资条，未导入任何数据：{rows}', en: 'For {count} rows the payslip to replace is unclear; nothing was imported: {rows}', es: 'En {count} filas no se sabe qué nómina sustituir; no se ha importado nada: {rows}', ja: '{count}行で対応する給与明細を特定できないため、何もインポートしていません：{rows}' },
  PAYSLIP_IMPORT_UNMATCHED_MORE: { status: 400, zh: '{count}行无法确定对应的工资条，未导入任何数据：{rows}；等共{count}行', en: 'For {count} rows the payslip to replace is unclear; nothing was imported: {rows}; {count} rows in all', es: 'En {count} filas no se sabe qué nómina sustituir; no se ha importado nada: {rows}; {count} filas en total', ja: '{count}行で対応する給与明細を特定できないため、何もインポートしていません：{rows}；など計{count}行' },

  // ---- Month close I: settlement statements, receipts, terms and VAT regimes (modules/settlement, issue 22)
  SETTLEMENT_MONTH_NOT_CONFIRMED: { status: 409, zh: '“{company}”{month}的工资尚未确认，不能生成结算单', en: 'The salaries of "{company}" for {month} are not confirmed yet; no statement can be generated', es: 'Los salarios de "{company}" de {month} aún no están confirmados; no se puede generar el extracto', ja: '「{company}」の{month}の給与はまだ確定していないため、精算書を作成できません' },
  SETTLEMENT_PREVIOUS_NOT_CONFIRMED: { status: 409, zh: '结算条款为当月收下月，需要{month}的单位社保公积金，但该月工资尚未确认', en: 'The terms bill the previous month’s employer contributions, but the salaries of {month} are not confirmed yet', es: 'Las condiciones facturan las cotizaciones patronales del mes anterior, pero los salarios de {month} aún no están confirmados', ja: '条件は前月分の会社負担社会保険を請求しますが、{month}の給与はまだ確定していません' },
  SETTLEMENT_NO_TERMS: { status: 409, zh: '“{company}”在{month}没有生效的结算条款，请先在单位的结算条款中录入', en: '"{company}" has no settlement terms in force in {month}; enter them in the company’s settlement terms first', es: '"{company}" no tiene condiciones de liquidación vigentes en {month}; introdúzcalas primero en la empresa', ja: '「{company}」には{month}に有効な精算条件がありません。先に会社の精算条件を登録してください' },
  SETTLEMENT_NO_DISPATCH_COMPANY: { status: 409, zh: '“{company}”没有设置派遣单位，无法确定增值税计税方式', en: '"{company}" has no dispatch company set, so its VAT regime is unknown', es: '"{company}" no tiene empresa de cesión, así que su régimen de IVA es desconocido', ja: '「{company}」に派遣元が設定されていないため、増値税の課税方式が分かりません' },
  SETTLEMENT_NO_VAT_REGIME: { status: 409, zh: '派遣单位“{agent}”在{month}没有生效的增值税计税方式，请先在“增值税计税方式”中录入', en: 'The dispatch company "{agent}" has no VAT regime in force in {month}; enter one under VAT regimes first', es: 'La empresa de cesión "{agent}" no tiene régimen de IVA vigente en {month}; introdúzcalo primero en Régimen de IVA', ja: '派遣元「{agent}」には{month}に有効な増値税の課税方式がありません。先に登録してください' },
  SETTLEMENT_BAD_TERMS: { status: 409, zh: '“{company}”{month}的结算条款无法使用：{detail}', en: 'The settlement terms of "{company}" for {month} cannot be used: {detail}', es: 'Las condiciones de liquidación de "{company}" de {month} no se pueden usar: {detail}', ja: '「{company}」の{month}の精算条件は使用できません：{detail}' },
  SETTLEMENT_HAS_RECEIPTS: { status: 409, zh: '该结算单已登记回款，不能重新生成', en: 'Receipts are recorded against this statement; it cannot be generated again', es: 'Hay cobros registrados para este extracto; no se puede volver a generar', ja: 'この精算書には入金が登録されているため、再作成できません' },
  SETTLEMENT_ILLEGAL_TRANSITION: { status: 409, zh: '结算单状态为“{from}”，不能变为“{to}”', en: 'The statement is "{from}"; it cannot become "{to}"', es: 'El extracto está en "{from}"; no puede pasar a "{to}"', ja: '精算書の状態は「{from}」のため、「{to}」に変更できません' },
  SETTLEMENT_NEEDS_REOPEN: { status: 409, zh: '该月工资已反确认，结算单需重开：请在工资重新确认后重新生成', en: 'The salary month was unconfirmed: the statement must be reopened; generate it again after the month is confirmed again', es: 'El mes salarial se desconfirmó: el extracto debe reabrirse; vuelva a generarlo tras confirmar de nuevo el mes', ja: '給与月の確定が取り消されたため、精算書は再作成が必要です。再確定後に作成し直してください' },
  SETTLEMENT_SUPERSEDED: { status: 409, zh: '该结算单已有更新的版本，旧版本只能查看', en: 'A newer version of this statement exists; the old version is read-only', es: 'Existe una versión más reciente del extracto; la antigua es de solo lectura', ja: 'この精算書には新しい版があるため、旧版は閲覧のみです' },
  SETTLEMENT_INVOICE_REQUIRED: { status: 400, zh: '开票需填写发票号码、开票日期和开票金额', en: 'Invoicing needs the invoice number, date and amount', es: 'Para facturar indique el número, la fecha y el importe de la factura', ja: '請求書発行には請求書番号、発行日、金額が必要です' },
  SETTLEMENT_DISPUTE_REASON_REQUIRED: { status: 400, zh: '请填写异议原因', en: 'Please give the reason of the objection', es: 'Indique el motivo de la objeción', ja: '異議の理由を入力してください' },
  SETTLEMENT_RECEIPT_STATE: { status: 409, zh: '结算单状态为“{state}”，开票后才能登记回款', en: 'The statement is "{state}"; receipts can be recorded once it is invoiced', es: 'El extracto está en "{state}"; los cobros se registran tras facturarlo', ja: '精算書の状態は「{state}」です。入金は請求書発行後に登録できます' },
  SETTLEMENT_AMOUNT_INVALID: { status: 400, zh: '{label}必须是大于0、最多两位小数的金额', en: '{label} must be an amount above 0 with at most two decimals', es: '{label} debe ser un importe mayor que 0 con dos decimales como máximo', ja: '{label}は0より大きく小数点以下2桁までの金額にしてください' },
  SETTLEMENT_DELETE_NOT_DRAFT: { status: 409, zh: '只有草稿状态的结算单可以删除', en: 'Only a draft statement can be deleted', es: 'Solo se puede eliminar un extracto en borrador', ja: '削除できるのは下書きの精算書だけです' },
  SETTLEMENT_NOT_FOUND: { status: 404, zh: '结算单不存在或无权访问', en: 'The statement does not exist or is not visible to you', es: 'El extracto no existe o no tiene acceso', ja: '精算書が存在しないか、アクセス権がありません' },
  SETTLEMENT_TERMS_ITEMS_INVALID: { status: 400, zh: '按人头收费项目无法识别：“{value}”（格式：名称:金额，用分号分隔，如 商保:30; 体检:15.50）', en: 'Per-head items not understood: "{value}" (format name:amount separated by semicolons, e.g. insurance:30; checkup:15.50)', es: 'Conceptos por persona no reconocidos: "{value}" (formato nombre:importe separados por punto y coma, p. ej. seguro:30; revisión:15.50)', ja: '1人当たり項目を認識できません：「{value}」（形式 名称:金額 をセミコロン区切りで。例 商保:30; 体検:15.50）' },
  SETTLEMENT_TERMS_UNION_RATIO: { status: 400, zh: '工会经费比例只能是0或0.02', en: 'The union fee ratio can only be 0 or 0.02', es: 'La proporción de cuota sindical solo puede ser 0 o 0.02', ja: '労働組合経費の比率は0または0.02のみです' },
  VAT_REGIME_AGENT_UNKNOWN: { status: 400, zh: '“{agent}”不是派遣单位，请从派遣单位中选择', en: '"{agent}" is not a dispatch company; choose one of the dispatch companies', es: '"{agent}" no es una empresa de cesión; elija una de ellas', ja: '「{agent}」は派遣元ではありません。派遣元から選択してください' },

  // ---- payroll: what 计算 could not use, and 确认 over it (modules/payroll/calculationReport) ------------------
  PAYROLL_INPUT_AGENT_UNKNOWN: { status: 409, zh: '保存在“{agent}”名下，但“{agent}”不是派遣单位（扣缴义务人），计算未使用；本单位的派遣单位是“{expected}”', en: 'Saved under "{agent}", but "{agent}" is not a withholding agent, so the calculation did not use it; the withholding agent of this company is "{expected}"', es: 'Guardado bajo "{agent}", pero "{agent}" no es un agente retenedor, por lo que el cálculo no lo usó; el agente retenedor de esta empresa es "{expected}"', ja: '「{agent}」の名義で保存されていますが、「{agent}」は源泉徴収義務者ではないため計算に使われませんでした。この会社の源泉徴収義務者は「{expected}」です' },
  PAYROLL_INPUT_STAFF_UNKNOWN: { status: 409, zh: '员工档案中没有身份证号{idCard}，计算未使用；请核对身份证号', en: 'No staff record has the ID card {idCard}, so the calculation did not use it; check the ID card number', es: 'Ningún empleado tiene el documento {idCard}, por lo que el cálculo no lo usó; compruebe el número', ja: '身分証番号{idCard}の従業員記録がないため計算に使われませんでした。身分証番号を確認してください' },
  PAYROLL_INPUT_STAFF_NOT_AT_AGENT: { status: 409, zh: '派遣单位“{agent}”下没有身份证号为{idCard}的员工，计算未使用；本单位的派遣单位是“{expected}”', en: 'The withholding agent "{agent}" has no staff with the ID card {idCard}, so the calculation did not use it; the withholding agent of this company is "{expected}"', es: 'El agente retenedor "{agent}" no tiene ningún empleado con el documento {idCard}, por lo que el cálculo no lo usó; el agente retenedor de esta empresa es "{expected}"', ja: '源泉徴収義務者「{agent}」に身分証番号{idCard}の従業員がいないため計算に使われませんでした。この会社の源泉徴収義務者は「{expected}」です' },
  PAYROLL_INPUT_COMPANY_MISSING: { status: 409, zh: '这条加班扣款数据没有所属单位，计算未使用', en: 'This overtime/deduction row has no company, so the calculation did not use it', es: 'Esta fila de horas extra/deducciones no tiene empresa, por lo que el cálculo no la usó', ja: 'この残業・控除データには所属会社がないため計算に使われませんでした' },
  PAYROLL_INPUT_STAFF_NOT_AT_COMPANY: { status: 409, zh: '“{company}”没有身份证号为{idCard}的员工，计算未使用；请核对身份证号', en: '"{company}" has no staff with the ID card {idCard}, so the calculation did not use it; check the ID card number', es: '"{company}" no tiene ningún empleado con el documento {idCard}, por lo que el cálculo no lo usó; compruebe el número', ja: '「{company}」に身分証番号{idCard}の従業員がいないため計算に使われませんでした。身分証番号を確認してください' },
  PAYROLL_UNRECORDED_MONTHS: { status: 409, zh: '本年在本派遣单位有{months}个任职月份未录入工资，已按这些月份无收入计算；如这些月份有收入，请先在“期初累计数据”中录入后重新计算', en: '{months} month(s) employed this year at this withholding agent have no salary recorded and were counted as months without income; if there was income, enter it under "Opening tax balances" and calculate again', es: '{months} mes(es) trabajados este año con este agente retenedor no tienen salario registrado y se calcularon como meses sin ingresos; si hubo ingresos, regístrelos en "Saldos fiscales iniciales" y vuelva a calcular', ja: '今年この源泉徴収義務者での在職月のうち{months}か月分に給与の記録がなく、収入なしとして計算しました。収入があった場合は「期首累計データ」に入力してから再計算してください' },
  PAYROLL_ROW_NOT_CALCULATED: { status: 409, zh: '本行未计算：{reason}；请修改后重新计算', en: 'This row was not calculated ({reason}); correct it and calculate again', es: 'Esta fila no se calculó ({reason}); corríjala y vuelva a calcular', ja: 'この行は計算されていません（{reason}）。修正してから再計算してください' },
  PAYROLL_ROW_FIELD_NOT_CALCULATED: { status: 409, zh: '本行未计算：{label}缺失或无效（{reason}）；请修改后重新计算', en: 'This row was not calculated: {label} is missing or invalid ({reason}); correct it and calculate again', es: 'Esta fila no se calculó: {label} falta o no es válido ({reason}); corríjalo y vuelva a calcular', ja: 'この行は計算されていません：{label}が未入力または無効です（{reason}）。修正してから再計算してください' },
  PAYROLL_REPORT_UNACKNOWLEDGED: { status: 409, zh: '本月计算有{count}项提示尚未核对（未使用的扣除、期初或加班扣款数据，未录入工资的任职月份），请核对后勾选“我已核对”再确认', en: 'The calculation left {count} open item(s) (unused deductions, opening balances or overtime rows, months without recorded salary): check them and tick "I have checked" to confirm', es: 'El cálculo dejó {count} aviso(s) sin revisar (deducciones, saldos iniciales u horas extra no usados, meses sin salario registrado): revíselos y marque "He revisado" para confirmar', ja: '計算で未確認の注意事項が{count}件あります（使われなかった控除・期首データ・残業控除、給与記録のない在職月）。確認のうえ「確認しました」にチェックしてから確定してください' },

  // ---- scheduler: system jobs and their run log (core/scheduler, modules/jobs) ------------------------------
  JOB_CRON_INVALID: { status: 400, zh: 'cron表达式格式错误：{cron}（应为“秒 分 时 日 月 周 [年]”或“分 时 日 月 周”）', en: 'Invalid cron expression: {cron} (expected "sec min hour day month weekday [year]" or "min hour day month weekday")', es: 'Expresión cron no válida: {cron} (se espera "seg min hora día mes día_semana [año]" o "min hora día mes día_semana")', ja: 'cron式の形式が正しくありません：{cron}（「秒 分 時 日 月 曜日 [年]」または「分 時 日 月 曜日」の形式にしてください）' },
  JOB_CRON_NEVER: { status: 400, zh: 'cron表达式 {cron} 以后不会再触发', en: 'The cron expression {cron} never fires again', es: 'La expresión cron {cron} no volverá a ejecutarse', ja: 'cron式 {cron} は今後実行されません' },
  JOB_CRON_DAY_AND_WEEK: { status: 400, zh: 'cron表达式 {cron} 不能同时指定日和周，其中一个须为 ?', en: 'The cron expression {cron} cannot give both a day of month and a weekday; one of them must be ?', es: 'La expresión cron {cron} no puede indicar a la vez día del mes y día de la semana; uno debe ser ?', ja: 'cron式 {cron} で日と曜日を同時に指定することはできません。どちらかを ? にしてください' },
  JOB_HANDLER_UNKNOWN: { status: 400, zh: '没有名为 {handler} 的任务处理器，请从列表中选择', en: 'There is no job handler named {handler}; please choose one from the list', es: 'No existe ningún manejador de tareas llamado {handler}; elija uno de la lista', ja: '{handler} という名前のタスクハンドラーはありません。一覧から選択してください' },
  LOG_RETENTION_BELOW_FLOOR: { status: 400, zh: '日志至少保留 {min} 天，不能设为 {days} 天（可由管理员在服务器配置 LOG_RETENTION_MIN_DAYS 中调低）', en: 'Logs are kept at least {min} days and cannot be set to {days} (an administrator may lower LOG_RETENTION_MIN_DAYS in the server configuration)', es: 'Los registros se conservan al menos {min} días y no pueden fijarse en {days} (un administrador puede reducir LOG_RETENTION_MIN_DAYS en la configuración del servidor)', ja: 'ログは少なくとも {min} 日間保持され、{days} 日には設定できません（管理者がサーバー設定の LOG_RETENTION_MIN_DAYS で下げられます）' },
  JOB_PARAMS_INVALID: { status: 400, zh: '任务参数必须是JSON对象：{reason}', en: 'The job parameters must be a JSON object: {reason}', es: 'Los parámetros de la tarea deben ser un objeto JSON: {reason}', ja: 'タスクのパラメーターはJSONオブジェクトである必要があります：{reason}' },
  SCHEDULED_JOB_NOT_FOUND: { status: 404, zh: '定时任务不存在', en: 'The scheduled job does not exist', es: 'La tarea programada no existe', ja: '定期タスクが存在しません' },
  JOB_NAME_TAKEN: { status: 409, zh: '任务名称已存在', en: 'A job with this name already exists', es: 'Ya existe una tarea con este nombre', ja: 'このタスク名は既に存在します' },
  JOB_RUNNING: { status: 409, zh: '任务正在执行中，请等待本次执行结束', en: 'The job is running; wait until this run ends', es: 'La tarea se está ejecutando; espere a que termine', ja: 'タスクは実行中です。今回の実行が終わるまでお待ちください' },
  JOB_LOG_NOT_FOUND: { status: 404, zh: '执行日志不存在', en: 'The run log entry does not exist', es: 'La entrada del registro de ejecución no existe', ja: '実行ログが存在しません' },
  JOB_NAME_REQUIRED: { status: 400, zh: '请输入任务名称', en: 'Please enter the job name', es: 'Introduzca el nombre de la tarea', ja: 'タスク名を入力してください' },
  JOB_HANDLER_REQUIRED: { status: 400, zh: '请选择任务处理器', en: 'Please choose the job handler', es: 'Elija el manejador de la tarea', ja: 'タスクハンドラーを選択してください' },
  JOB_CRON_REQUIRED: { status: 400, zh: '请输入Cron表达式', en: 'Please enter the cron expression', es: 'Introduzca la expresión cron', ja: 'cron式を入力してください' },
  JOB_SCHEDULER_UNAVAILABLE: { status: 503, zh: '调度服务不可用：{reason}', en: 'The scheduler is unavailable: {reason}', es: 'El planificador no está disponible: {reason}', ja: 'スケジューラーを利用できません：{reason}' },
  JOB_SALARY_PREP_FAILED: { status: 422, zh: '部分单位未能生成工资：{summary}', en: 'Salaries could not be generated for some companies: {summary}', es: 'No se pudieron generar los salarios de algunas empresas: {summary}', ja: '一部の会社で給与を生成できませんでした：{summary}' },
  BACKUP_UNSUPPORTED: { status: 409, zh: '无法备份数据库：{reason}', en: 'The database cannot be backed up: {reason}', es: 'No se puede hacer copia de seguridad de la base de datos: {reason}', ja: 'データベースをバックアップできません：{reason}' },
  BACKUP_TOOL_MISSING: { status: 409, zh: '无法备份数据库：服务器上找不到 {tool}，请安装数据库客户端工具后再试', en: 'The database cannot be backed up: {tool} is not installed on the server; install the database client tools and try again', es: 'No se puede hacer copia de seguridad: {tool} no está instalado en el servidor; instale las herramientas cliente de la base de datos', ja: 'データベースをバックアップできません：サーバーに {tool} がありません。データベースのクライアントツールをインストールしてください' },
  BACKUP_DUMP_FAILED: { status: 502, zh: '数据库备份失败（{tool}）：{reason}', en: 'The database backup failed ({tool}): {reason}', es: 'La copia de seguridad de la base de datos falló ({tool}): {reason}', ja: 'データベースのバックアップに失敗しました（{tool}）：{reason}' },
  // ---- payslip delivery and confirmation (modules/payroll/payslipDelivery.ts, issue 24 item 1)
  PAYSLIP_DELIVERY_NOT_CONFIRMED: { status: 409, zh: '{company}{month}的工资尚未确认，不能发布工资条', en: 'The salaries of {company} for {month} are not confirmed; payslips cannot be published', es: 'Los salarios de {company} de {month} no están confirmados; no se pueden publicar las nóminas', ja: '{company}の{month}の給与は未確定のため、給与明細を公開できません' },
  PAYSLIP_DELIVERY_NO_SLIPS: { status: 409, zh: '{company}{month}没有工资条，请先生成工资条', en: '{company} has no payslips for {month}; generate the payslips first', es: '{company} no tiene nóminas de {month}; genere primero las nóminas', ja: '{company}の{month}の給与明細がありません。先に給与明細を作成してください' },
  PAYSLIP_DELIVERY_SCHEDULED: { status: 409, zh: '{company}{month}的工资条已定时于{time}发布，请先撤回', en: 'The payslips of {company} for {month} are scheduled for {time}; recall them first', es: 'Las nóminas de {company} de {month} están programadas para {time}; retírelas primero', ja: '{company}の{month}の給与明細は{time}に公開予定です。先に取り消してください' },
  PAYSLIP_DELIVERY_UNCHANGED: { status: 409, zh: '{company}{month}的工资条已发布（第{version}版），内容没有变化', en: 'The payslips of {company} for {month} are already published (version {version}) and have not changed', es: 'Las nóminas de {company} de {month} ya están publicadas (versión {version}) y no han cambiado', ja: '{company}の{month}の給与明細は公開済み（第{version}版）で、内容に変更はありません' },
  PAYSLIP_DELIVERY_NOTHING_TO_RECALL: { status: 409, zh: '{company}{month}没有可撤回的工资条发布', en: '{company} has no publication of payslips for {month} to recall', es: '{company} no tiene ninguna publicación de nóminas de {month} que retirar', ja: '{company}の{month}に取り消せる給与明細の公開はありません' },
  PAYSLIP_DELIVERY_EMPLOYEE: { status: 403, zh: '普通员工只能查看本人工资条', en: 'Ordinary employees can only see their own payslips', es: 'Los empleados ordinarios solo pueden ver sus propias nóminas', ja: '一般従業員は本人の給与明細のみ閲覧できます' },
  PAYSLIP_RECEIPT_NOT_FOUND: { status: 404, zh: '工资条不存在或不是本人的', en: 'The payslip does not exist or is not yours', es: 'La nómina no existe o no es suya', ja: '給与明細が存在しないか、本人のものではありません' },
  PAYSLIP_RECEIPT_WITHDRAWN: { status: 409, zh: '该工资条已撤回或已有新版本，请刷新后查看', en: 'This payslip was recalled or replaced by a new version; refresh to see the current one', es: 'Esta nómina se retiró o tiene una versión nueva; actualice para ver la vigente', ja: 'この給与明細は取り消されたか新しい版があります。再読み込みしてください' },
  PAYSLIP_RECEIPT_VERSION_CHANGED: { status: 409, zh: '工资条内容已更新，请查看最新版本后再确认', en: 'The payslip has changed; view the latest version before confirming', es: 'La nómina ha cambiado; vea la versión más reciente antes de confirmar', ja: '給与明細が更新されました。最新版を確認してから確定してください' },
  PAYSLIP_RECEIPT_CONFIRMED: { status: 409, zh: '该工资条已确认，不能再提出异议', en: 'This payslip is already confirmed; no objection can be raised', es: 'Esta nómina ya está confirmada; no se puede presentar una objeción', ja: 'この給与明細は確認済みのため、異議を申し立てられません' },
  PAYSLIP_RECEIPT_NO_OBJECTION: { status: 409, zh: '该工资条没有待答复的异议', en: 'This payslip has no objection awaiting an answer', es: 'Esta nómina no tiene ninguna objeción pendiente de respuesta', ja: 'この給与明細に回答待ちの異議はありません' },
  PAYSLIP_FEEDBACK_EMPTY: { status: 400, zh: '请填写内容', en: 'Please enter the text', es: 'Introduzca el texto', ja: '内容を入力してください' },
  PAYSLIP_FEEDBACK_TOO_LONG: { status: 400, zh: '内容不能超过{max}个字符', en: 'The text can be at most {max} characters', es: 'El texto puede tener como máximo {max} caracteres', ja: '内容は{max}文字以内で入力してください' },
  PAYSLIP_CONFIRM_DAYS: { status: 400, zh: '确认期限应为1到{max}天', en: 'The confirmation period must be 1 to {max} days', es: 'El plazo de confirmación debe ser de 1 a {max} días', ja: '確認期限は1～{max}日で指定してください' },
  PAYSLIP_PUBLISH_AT_INVALID: { status: 400, zh: '发布时间格式不正确', en: 'The publishing time is not valid', es: 'La hora de publicación no es válida', ja: '公開日時の形式が正しくありません' },
  PAYSLIP_SITE_URL_INVALID: { status: 400, zh: '网址格式不正确', en: 'The web address is not valid', es: 'La dirección web no es válida', ja: 'URLの形式が正しくありません' },
  PAYSLIP_HASH_INVALID: { status: 400, zh: '工资条版本不正确', en: 'The payslip version is not valid', es: 'La versión de la nómina no es válida', ja: '給与明細の版が正しくありません' },
  COMPANY_ID_INVALID: { status: 400, zh: '单位ID无效', en: 'The company ID is not valid', es: 'El ID de la empresa no es válido', ja: '会社IDが正しくありません' },
  MONTH_FORMAT_INVALID: { status: 400, zh: '月份格式应为YYYY-MM', en: 'The month must be YYYY-MM', es: 'El mes debe tener el formato AAAA-MM', ja: '月はYYYY-MM形式で入力してください' },

  // ---- 代发工资 and 银行模板 (modules/payout, issue 23) --------------------------------------------------------
  BANKTEMPLATE_INVALID: { status: 400, zh: '银行模板“{name}”的{part}有误：{reason}', en: 'The bank template "{name}" has an error in {part}: {reason}', es: 'La plantilla bancaria "{name}" tiene un error en {part}: {reason}', ja: '銀行テンプレート「{name}」の{part}に誤りがあります：{reason}' },
  BANKTEMPLATE_IN_USE: { status: 409, zh: '银行模板已被代发批次使用，不能删除', en: 'The bank template is used by payout batches and cannot be deleted', es: 'La plantilla bancaria la usan lotes de pago y no se puede eliminar', ja: '銀行テンプレートは振込バッチで使用されているため削除できません' },
  SICHANGETEMPLATE_INVALID: { status: 400, zh: '社保模板“{name}”的{part}有误：{reason}', en: 'The SI list template "{name}" has an error in {part}: {reason}', es: 'La plantilla de altas y bajas "{name}" tiene un error en {part}: {reason}', ja: '社会保険届出テンプレート「{name}」の{part}に誤りがあります：{reason}' },
  SICHANGES_TEMPLATE_NOT_FOUND: { status: 404, zh: '社保模板不存在', en: 'The SI list template does not exist', es: 'La plantilla de altas y bajas no existe', ja: '社会保険届出テンプレートが存在しません' },
  SICHANGES_KIND_NOT_IN_TEMPLATE: { status: 400, zh: '社保模板“{name}”没有{kind}名单的列', en: 'The SI list template "{name}" has no columns for the {kind} list', es: 'La plantilla "{name}" no tiene columnas para la lista de {kind}', ja: 'テンプレート「{name}」には{kind}リストの列がありません' },
  SICHANGES_NOT_ENCODABLE: { status: 400, zh: '{name}的“{column}”无法用{encoding}编码写入文件，请改用GB18030或UTF-8编码的模板', en: 'The "{column}" of {name} cannot be written in {encoding}; use a GB18030 or UTF-8 template', es: 'La columna "{column}" de {name} no se puede escribir en {encoding}; use una plantilla GB18030 o UTF-8', ja: '{name}の「{column}」は{encoding}で書き込めません。GB18030またはUTF-8のテンプレートを使ってください' },
  PAYOUT_TEMPLATE_NOT_FOUND: { status: 404, zh: '银行模板不存在', en: 'The bank template does not exist', es: 'La plantilla bancaria no existe', ja: '銀行テンプレートが存在しません' },
  PAYOUT_BATCH_NOT_FOUND: { status: 404, zh: '代发批次不存在', en: 'The payout batch does not exist', es: 'El lote de pago no existe', ja: '振込バッチが存在しません' },
  PAYOUT_ROW_NOT_FOUND: { status: 404, zh: '代发明细不存在', en: 'The payout row does not exist', es: 'La línea de pago no existe', ja: '振込明細が存在しません' },
  PAYOUT_MONTH_NOT_CONFIRMED: { status: 409, zh: '“{company}”{month}的工资尚未确认，不能生成代发批次', en: 'The salaries of "{company}" for {month} are not confirmed yet; no payout batch can be generated', es: 'Los salarios de "{company}" de {month} aún no están confirmados; no se puede generar un lote de pago', ja: '「{company}」の{month}の給与はまだ確定していないため、振込バッチを作成できません' },
  PAYOUT_BATCH_EXISTS: { status: 409, zh: '“{company}”{month}已有代发批次（{id}号）；未导出的批次可删除后重新生成，失败的行请重新代发', en: '"{company}" already has a payout batch for {month} (no. {id}); delete it if it is not exported yet, or re-pay its failed rows', es: '"{company}" ya tiene un lote de pago para {month} (n.º {id}); elimínelo si aún no se ha exportado o vuelva a pagar sus líneas fallidas', ja: '「{company}」の{month}には振込バッチ（{id}番）があります。未出力なら削除して作り直し、失敗行は再振込してください' },
  PAYOUT_NOTHING_TO_PAY: { status: 400, zh: '“{company}”{month}没有实发工资大于0的人员', en: '"{company}" has nobody with a net pay above 0 for {month}', es: '"{company}" no tiene a nadie con salario neto mayor que 0 en {month}', ja: '「{company}」の{month}に差引支給額が0を超える人はいません' },
  PAYOUT_NO_FAILED_ROWS: { status: 409, zh: '该批次没有待重新代发的失败行', en: 'This batch has no failed rows left to re-pay', es: 'Este lote no tiene líneas fallidas pendientes de volver a pagar', ja: 'このバッチに再振込する失敗行はありません' },
  PAYOUT_LOCKED: { status: 409, zh: '代发批次已导出（已锁定），不能删除', en: 'The payout batch has been exported (locked) and cannot be deleted', es: 'El lote de pago ya se exportó (bloqueado) y no se puede eliminar', ja: '振込バッチは出力済み（ロック）のため削除できません' },
  // ---- 社保调基与平账 (issue 24 items 2 and 4) -----------------------------------------------------------
  SALARY_HAS_SI_BACK_ITEMS: {
    status: 409,
    zh: '本月已有调基补差计入{target}，反确认后重新生成会按新基数重算本月，补差将重复计算；请在{target}确认前联系管理员处理补差后再反确认',
    en: 'Back contributions of a base adjustment for this month are already placed in {target}: reopening and regenerating this month would count them twice; have the back contributions handled before {target} is confirmed, then reopen',
    es: 'Las cotizaciones atrasadas de un ajuste de base de este mes ya están en {target}: reabrir y regenerar este mes las contaría dos veces; resuelva esas cotizaciones antes de confirmar {target} y luego reabra',
    ja: '当月の基数調整の追納分はすでに{target}に計上されています。反確定して再生成すると二重に計上されるため、{target}の確定前に追納分を処理してから反確定してください',
  },
  SIADJUST_NOBODY: { status: 400, zh: '没有可调整基数的员工（{reason}）', en: 'No staff member can have the base adjusted ({reason})', es: 'Ningún empleado puede ajustar su base ({reason})', ja: '基数を調整できる従業員がいません（{reason}）' },
  SIADJUST_UPLOAD_UNREADABLE: { status: 400, zh: '新基数文件无法读取：{reason}', en: 'The file of new bases cannot be read: {reason}', es: 'No se puede leer el archivo de nuevas bases: {reason}', ja: '新しい基数のファイルを読み取れません：{reason}' },
  SIADJUST_UPLOAD_EMPTY: { status: 400, zh: '文件中没有可用的基数行', en: 'The file has no usable base rows', es: 'El archivo no tiene filas de base utilizables', ja: 'ファイルに使用できる基数の行がありません' },
  SIADJUST_TARGET_CONFIRMED: { status: 409, zh: '补差应计入的{month}已确认，请刷新后重试', en: 'The month the back pay goes into ({month}) has been confirmed; refresh and try again', es: 'El mes al que va la regularización ({month}) ya está confirmado; actualice y vuelva a intentarlo', ja: '差額を計上する{month}は確定済みです。再読み込みしてやり直してください' },
  SIADJUST_RECON_UNREADABLE: { status: 400, zh: '平账文件无法读取：{reason}', en: 'The bureau statement cannot be read: {reason}', es: 'No se puede leer el extracto de la oficina: {reason}', ja: '社会保険の明細ファイルを読み取れません：{reason}' },
  SIADJUST_RECON_PARAMS: { status: 400, zh: '请选择单位和月份', en: 'Choose the company and the month', es: 'Elija la empresa y el mes', ja: '会社と月を選択してください' },
  SIADJUST_RECON_MONTH_OPEN: { status: 409, zh: '{company}{month}的工资尚未确认，请确认后再平账', en: 'The payroll of {company} for {month} is not confirmed; confirm it before reconciling', es: 'La nómina de {company} de {month} no está confirmada; confírmela antes de conciliar', ja: '{company}の{month}の給与は未確定です。確定してから照合してください' },
  SIADJUST_RECON_NOT_FOUND: { status: 404, zh: '平账记录不存在', en: 'The reconciliation does not exist', es: 'La conciliación no existe', ja: '照合記録が存在しません' },
  SIADJUST_RECON_ACCEPTED: { status: 409, zh: '所选差异中有{count}条已确认或不属于该平账，不能重复确认', en: '{count} of the chosen differences are already accepted or not part of this reconciliation', es: '{count} de las diferencias elegidas ya están aceptadas o no pertenecen a esta conciliación', ja: '選択した差異のうち{count}件は確認済みか、この照合のものではありません' },
  SIADJUST_RECON_NOT_STAFF: { status: 409, zh: '{names}不是该单位的员工，差异不能计入工资', en: '{names} is not on the staff of this company; the difference cannot go into the payroll', es: '{names} no es empleado de esta empresa; la diferencia no puede ir a la nómina', ja: '{names}はこの会社の従業員ではないため、差異を給与に計上できません' },
  SIADJUST_BASE_NOT_AMOUNT: { status: 400, zh: '基数必须是金额', en: 'The base must be an amount', es: 'La base debe ser un importe', ja: '基数は金額にしてください' },
  SIADJUST_BASE_NEGATIVE: { status: 400, zh: '基数不能为负数', en: 'The base must not be negative', es: 'La base no puede ser negativa', ja: '基数を負の値にはできません' },
  SIADJUST_BASE_TOO_LARGE: { status: 400, zh: '基数过大', en: 'The base is too large', es: 'La base es demasiado grande', ja: '基数が大きすぎます' },
  SIADJUST_SOURCE_INVALID: { status: 400, zh: '基数来源应为 average（上年月平均应发）或 upload（上传）', en: 'The source of the bases must be average (prior-year monthly average pay) or upload', es: 'El origen de las bases debe ser average (media mensual del año anterior) o upload (archivo)', ja: '基数の取得元は average（前年の月平均支給額）または upload（アップロード）にしてください' },
  SIADJUST_TOO_MANY_PEOPLE: { status: 400, zh: '一次最多20000人', en: 'At most 20,000 people at a time', es: 'Como máximo 20.000 personas a la vez', ja: '一度に最大20000人です' },
  SIADJUST_UPLOAD_FIRST: { status: 400, zh: '请先上传新基数文件', en: 'Upload the file of new bases first', es: 'Suba primero el archivo de nuevas bases', ja: '先に新しい基数のファイルをアップロードしてください' },
  SIADJUST_REASON_TOO_LONG: { status: 400, zh: '原因最多200个字', en: 'The reason can be at most 200 characters', es: 'El motivo puede tener como máximo 200 caracteres', ja: '理由は200文字以内にしてください' },
  SIADJUST_ID_CARD_LENGTH: { status: 400, zh: '身份证号应为15或18位', en: 'The ID card number must have 15 or 18 characters', es: 'El número de DNI debe tener 15 o 18 caracteres', ja: '身分証番号は15桁または18桁にしてください' },
  SIADJUST_LINE_IDS: { status: 400, zh: 'lineIds 必须是ID数组', en: 'lineIds must be an array of ids', es: 'lineIds debe ser una lista de ID', ja: 'lineIds はIDの配列である必要があります' },
  SIADJUST_LINES_MAX: { status: 400, zh: '一次最多5000条', en: 'At most 5,000 at a time', es: 'Como máximo 5.000 a la vez', ja: '一度に最大5000件です' },
  PAYOUT_NOT_EXPORTED: { status: 409, zh: '代发批次尚未导出，不能导入回盘', en: 'The payout batch has not been exported yet; no return file can be imported', es: 'El lote de pago aún no se ha exportado; no se puede importar el archivo de respuesta', ja: '振込バッチはまだ出力されていないため、結果ファイルを取り込めません' },
  PAYOUT_RETURN_UNREADABLE: { status: 400, zh: '回盘文件无法读取：{reason}', en: 'The return file cannot be read: {reason}', es: 'No se puede leer el archivo de respuesta: {reason}', ja: '結果ファイルを読み取れません：{reason}' },
  PAYOUT_ROW_NOT_FAILED: { status: 409, zh: '只能更正银行回盘失败且尚未重新代发的行', en: 'Only rows the bank reported as failed and not yet re-paid can be corrected', es: 'Solo se pueden corregir las líneas que el banco devolvió como fallidas y aún no se han vuelto a pagar', ja: '訂正できるのは、銀行が失敗と返し、まだ再振込していない行だけです' },
  PAYOUT_CARD_INVALID: { status: 400, zh: '银行卡号应为16到19位数字', en: 'The card number must be 16 to 19 digits', es: 'El número de tarjeta debe tener de 16 a 19 dígitos', ja: 'カード番号は16〜19桁の数字にしてください' },
  PAYOUT_CARD_LUHN: { status: 400, zh: '银行卡号校验位不符（Luhn），请核对卡号；确认无误时勾选“确认卡号”', en: 'The card number fails the check digit (Luhn); check it, and tick "Card confirmed" if it is right', es: 'El número de tarjeta no supera el dígito de control (Luhn); revíselo y marque "Tarjeta confirmada" si es correcto', ja: 'カード番号のチェックディジット（Luhn）が一致しません。確認し、正しければ「カード番号確認済み」にチェックしてください' },
  PAYOUT_NAME_MISMATCH: { status: 400, zh: '户名“{accountName}”与员工姓名“{staffName}”不一致', en: 'The account name "{accountName}" differs from the staff name "{staffName}"', es: 'El titular "{accountName}" no coincide con el nombre del empleado "{staffName}"', ja: '口座名義「{accountName}」が従業員名「{staffName}」と一致しません' },
  PAYOUT_ACCEPT_LUHN_IDS: { status: 400, zh: 'acceptLuhn 必须是ID数组', en: 'acceptLuhn must be an array of ids', es: 'acceptLuhn debe ser una lista de ID', ja: 'acceptLuhn はIDの配列である必要があります' },
  PAYOUT_ACCEPT_LUHN_MAX: { status: 400, zh: '一次最多20000条', en: 'At most 20,000 at a time', es: 'Como máximo 20.000 a la vez', ja: '一度に最大20000件です' },
  PAYOUT_STATE_INVALID: { status: 400, zh: '状态无效', en: 'Invalid state', es: 'Estado no válido', ja: '状態が不正です' },
  PAYOUT_CARD_REQUIRED: { status: 400, zh: '请输入银行卡号', en: 'Please enter the card number', es: 'Introduzca el número de tarjeta', ja: 'カード番号を入力してください' },
  PAYOUT_ACCOUNT_NAME_REQUIRED: { status: 400, zh: '请输入户名', en: 'Please enter the account name', es: 'Introduzca el titular de la cuenta', ja: '口座名義を入力してください' },
  PAYOUT_ACCOUNT_NAME_LONG: { status: 400, zh: '户名最多50个字符', en: 'The account name has at most 50 characters', es: 'El titular tiene como máximo 50 caracteres', ja: '口座名義は50文字以内です' },
  PAYOUT_BANK_NAME_LONG: { status: 400, zh: '开户行最多100个字符', en: 'The bank name has at most 100 characters', es: 'El banco tiene como máximo 100 caracteres', ja: '取扱銀行は100文字以内です' },

  // ---- 个税申报 (issue 23 items 4-6) ----------------------------------------------------------------------
  IIT_AGENT_REQUIRED: { status: 400, zh: '请选择扣缴义务人（派遣单位）', en: 'Please choose the withholding agent (dispatch entity)', es: 'Elija el agente de retención (entidad de cesión)', ja: '源泉徴収義務者（派遣元）を選択してください' },
  IIT_AGENT_UNKNOWN: { status: 400, zh: '“{agent}”不是派遣单位字典中的扣缴义务人', en: '"{agent}" is not a withholding agent of the dispatch-entity dictionary', es: '"{agent}" no es un agente de retención del diccionario de entidades de cesión', ja: '「{agent}」は派遣元辞書の源泉徴収義務者ではありません' },
  IIT_AGENT_NOT_VISIBLE: { status: 403, zh: '“{agent}”的用工单位不全在您的数据权限内，不能申报或核对该扣缴义务人', en: 'Not all client companies of "{agent}" are within your data scope; you cannot declare or reconcile for this withholding agent', es: 'No todas las empresas cliente de "{agent}" están en su ámbito de datos; no puede declarar ni conciliar para este agente de retención', ja: '「{agent}」の派遣先がすべてデータ権限内にあるわけではないため、この源泉徴収義務者の申告・照合はできません' },
  IIT_MONTH_NOT_CONFIRMED: { status: 409, zh: '{month}以下单位的工资尚未确认：{companies}；确认后再导出申报表', en: 'The salaries of these companies for {month} are not confirmed yet: {companies}; confirm them before exporting the declaration', es: 'Los salarios de estas empresas de {month} aún no están confirmados: {companies}; confírmelos antes de exportar la declaración', ja: '{month}の次の派遣先の給与はまだ確定していません：{companies}。確定してから申告表を出力してください' },
  IIT_NOTHING_CONFIRMED: { status: 409, zh: '“{agent}”{period}没有已确认的工资', en: '"{agent}" has no confirmed salaries for {period}', es: '"{agent}" no tiene salarios confirmados en {period}', ja: '「{agent}」の{period}に確定済みの給与はありません' },
  IIT_YEAR_FORMAT: { status: 400, zh: '年度格式应为YYYY', en: 'The year must be in the form YYYY', es: 'El año debe tener el formato AAAA', ja: '年度はYYYY形式で入力してください' },
  IIT_FILE_UNREADABLE: { status: 400, zh: '税局文件无法读取：{reason}', en: 'The ITS file cannot be read: {reason}', es: 'No se puede leer el archivo de ITS: {reason}', ja: '税務システムのファイルを読み取れません：{reason}' },
  IIT_FILE_HEADERS: { status: 400, zh: '税局文件缺少列：{columns}（前20行内未找到表头）', en: 'The ITS file lacks the columns {columns} (no header found in the first 20 rows)', es: 'Al archivo de ITS le faltan las columnas {columns} (no hay encabezado en las primeras 20 filas)', ja: '税務システムのファイルに列 {columns} がありません（先頭20行に見出しがありません）' },
  IIT_FILE_ROW: { status: 400, zh: '税局文件第{row}行：{reason}', en: 'Row {row} of the ITS file: {reason}', es: 'Fila {row} del archivo de ITS: {reason}', ja: '税務システムのファイル{row}行目：{reason}' },
  IIT_FILE_EMPTY: { status: 400, zh: '税局文件没有人员数据', en: 'The ITS file has no person rows', es: 'El archivo de ITS no tiene filas de personas', ja: '税務システムのファイルに人員データがありません' },
  IIT_FILE_TOO_MANY: { status: 400, zh: '税局文件最多{max}行', en: 'The ITS file has at most {max} rows', es: 'El archivo de ITS tiene como máximo {max} filas', ja: '税務システムのファイルは最大{max}行です' },
  IIT_OPEN_FLAG: { status: 400, zh: 'open 只能是 true 或 false', en: 'open must be true or false', es: 'open debe ser true o false', ja: 'open は true または false のみです' },
  IIT_OVERRIDE_FLAG: { status: 400, zh: 'iitOverride 只能是 true', en: 'iitOverride can only be true', es: 'iitOverride solo puede ser true', ja: 'iitOverride は true のみです' },
  IIT_DIFF_NOT_FOUND: { status: 404, zh: '核对差异不存在', en: 'The reconciliation difference does not exist', es: 'La diferencia de conciliación no existe', ja: '照合差異が存在しません' },
  IIT_DIFF_SUPERSEDED: { status: 409, zh: '该差异属于已被重新导入替代的核对结果，请在最新结果中确认', en: 'This difference belongs to a reconciliation replaced by a later import; acknowledge it in the latest result', es: 'Esta diferencia pertenece a una conciliación sustituida por una importación posterior; confírmela en el último resultado', ja: 'この差異は再取込で置き換えられた照合結果のものです。最新の結果で確認してください' },
  IIT_ACK_REASON: { status: 400, zh: '请填写差异原因（1到200个字符）', en: 'Please give the reason for the difference (1 to 200 characters)', es: 'Indique el motivo de la diferencia (de 1 a 200 caracteres)', ja: '差異の理由を入力してください（1〜200文字）' },
  IIT_NO_PERSON_LIST: { status: 409, zh: '“{agent}”{month}尚未导入税局人员名单', en: 'No ITS person list has been imported for "{agent}" {month}', es: 'No se ha importado la lista de personas de ITS para "{agent}" {month}', ja: '「{agent}」{month}の税務システム人員名簿がまだ取り込まれていません' },
  IIT_RECONCILE_OPEN: { status: 409, zh: '“{agent}”{month}的个税核对还有{open}条差异未确认；请在“个税申报”中确认差异，或注明原因强制导出', en: 'The IIT reconciliation of "{agent}" {month} still has {open} unacknowledged differences; acknowledge them under IIT declaration, or override with a reason', es: 'La conciliación del IRPF de "{agent}" {month} aún tiene {open} diferencias sin confirmar; confírmelas en Declaración del IRPF o fuerce la exportación indicando el motivo', ja: '「{agent}」{month}の個人所得税照合に未確認の差異が{open}件あります。「個人所得税申告」で確認するか、理由を記入して強制出力してください' },
  IIT_OVERRIDE_REASON: { status: 400, zh: '强制导出请填写原因（1到200个字符）', en: 'Please give a reason for the override (1 to 200 characters)', es: 'Indique el motivo para forzar la exportación (de 1 a 200 caracteres)', ja: '強制出力の理由を入力してください（1〜200文字）' },

  // ---- login and self-service ----------------------------------------------------------------------------
  USERNAME_REQUIRED: { status: 400, zh: '请输入用户名', en: 'Please enter the username', es: 'Introduzca el nombre de usuario', ja: 'ユーザー名を入力してください' },
  PASSWORD_REQUIRED: { status: 400, zh: '请输入密码', en: 'Please enter the password', es: 'Introduzca la contraseña', ja: 'パスワードを入力してください' },
  LOGIN_FAILED: { status: 400, zh: '用户名或密码错误', en: 'Wrong username or password', es: 'Usuario o contraseña incorrectos', ja: 'ユーザー名またはパスワードが正しくありません' },
  PASSWORD_ENCRYPTION: { status: 400, zh: '密码未加密或加密方式不正确，请刷新页面后重试', en: 'The password was not encrypted correctly, please reload the page and try again', es: 'La contraseña no se cifró correctamente; recargue la página e inténtelo de nuevo', ja: 'パスワードが正しく暗号化されていません。ページを再読み込みしてやり直してください' },
  LOGIN_RATE_LIMITED: { status: 429, zh: '登录尝试过于频繁，请1分钟后再试', en: 'Too many login attempts, please try again in a minute', es: 'Demasiados intentos de inicio de sesión; inténtelo dentro de un minuto', ja: 'ログイン試行が多すぎます。1分後に再試行してください' },
  CAPTCHA_RATE_LIMITED: { status: 429, zh: '获取验证码过于频繁，请稍后再试', en: 'Too many captcha requests, please try again later', es: 'Demasiadas solicitudes de captcha; inténtelo más tarde', ja: '認証コードの取得が多すぎます。しばらくしてから再試行してください' },
  ACCOUNT_LOCKED: { status: 429, zh: '密码错误次数过多，账号已锁定15分钟', en: 'Too many wrong passwords: the account is locked for 15 minutes', es: 'Demasiadas contraseñas incorrectas: la cuenta queda bloqueada 15 minutos', ja: 'パスワードの誤りが多すぎるため、アカウントは15分間ロックされました' },
  PASSWORD_RETRY_LATER: { status: 429, zh: '密码错误次数过多，请15分钟后再试', en: 'Too many wrong passwords, please try again in 15 minutes', es: 'Demasiadas contraseñas incorrectas; inténtelo dentro de 15 minutos', ja: 'パスワードの誤りが多すぎます。15分後に再試行してください' },
  LOGIN_USER_GONE: { status: 401, zh: '用户名或密码错误', en: 'Wrong username or password', es: 'Usuario o contraseña incorrectos', ja: 'ユーザー名またはパスワードが正しくありません' },
  SESSION_ACCOUNT_DISABLED: { status: 401, zh: '账号已停用，请联系管理员', en: 'The account is disabled; please contact the administrator', es: 'La cuenta está desactivada; contacte con el administrador', ja: 'アカウントは無効です。管理者に連絡してください' },
  CAPTCHA_MISSING: { status: 400, zh: '验证码不存在或已过期', en: 'The captcha does not exist or has expired', es: 'El captcha no existe o ha caducado', ja: '認証コードが存在しないか、期限切れです' },
  CAPTCHA_WRONG: { status: 400, zh: '验证码错误', en: 'Wrong captcha', es: 'Captcha incorrecto', ja: '認証コードが正しくありません' },
  OLD_PASSWORD_WRONG: { status: 400, zh: '修改失败，旧密码错误', en: 'Not changed: the old password is wrong', es: 'No se cambió: la contraseña anterior es incorrecta', ja: '変更できません。旧パスワードが正しくありません' },
  PASSWORD_WRONG: { status: 400, zh: '密码错误', en: 'Wrong password', es: 'Contraseña incorrecta', ja: 'パスワードが正しくありません' },
  PASSWORD_LENGTH: { status: 400, zh: '长度在 6 到 20 个字符', en: 'Between 6 and 20 characters', es: 'Entre 6 y 20 caracteres', ja: '6～20文字で入力してください' },
  PASSWORD_SAME: { status: 400, zh: '新密码不能与旧密码相同', en: 'The new password must differ from the old one', es: 'La nueva contraseña debe ser distinta de la anterior', ja: '新しいパスワードは旧パスワードと異なる必要があります' },
  EMAIL_SAME: { status: 400, zh: '新邮箱不能与旧邮箱相同', en: 'The new e-mail address must differ from the old one', es: 'El nuevo correo debe ser distinto del anterior', ja: '新しいメールアドレスは旧アドレスと異なる必要があります' },
  EMAIL_TAKEN: { status: 409, zh: '该邮箱已被其他用户使用', en: 'This e-mail address is used by another user', es: 'Otro usuario ya usa este correo', ja: 'このメールアドレスは他のユーザーが使用しています' },
  EMAIL_CODE_TYPE: { status: 400, zh: '不支持的验证码类型', en: 'Unsupported verification code type', es: 'Tipo de código de verificación no admitido', ja: 'サポートされていない認証コードの種類です' },
  EMAIL_CODE_HOURLY: { status: 429, zh: '验证码发送次数过多，请1小时后再试', en: 'Too many codes sent, please try again in an hour', es: 'Se enviaron demasiados códigos; inténtelo dentro de una hora', ja: '認証コードの送信回数が多すぎます。1時間後に再試行してください' },
  EMAIL_CODE_TOO_SOON: { status: 429, zh: '验证码发送过于频繁，请60秒后再试', en: 'Codes are sent too often, please try again in 60 seconds', es: 'Se envían códigos con demasiada frecuencia; inténtelo dentro de 60 segundos', ja: '認証コードの送信が頻繁すぎます。60秒後に再試行してください' },
  EMAIL_CODE_WRONG: { status: 400, zh: '验证码错误或已过期', en: 'The verification code is wrong or has expired', es: 'El código de verificación es incorrecto o ha caducado', ja: '認証コードが正しくないか、期限切れです' },
  MAIL_SEND_FAILED: { status: 502, zh: '验证码发送失败，请检查邮件服务配置后重试', en: 'The code could not be sent; check the mail settings and try again', es: 'No se pudo enviar el código; revise la configuración de correo e inténtelo de nuevo', ja: '認証コードを送信できませんでした。メール設定を確認して再試行してください' },
  AVATAR_REQUIRED: { status: 400, zh: '请上传头像文件', en: 'Please upload an avatar image', es: 'Suba una imagen de avatar', ja: 'アバター画像をアップロードしてください' },
  AVATAR_TOO_LARGE: { status: 400, zh: '头像文件不能超过5MB', en: 'The avatar may not exceed 5 MB', es: 'El avatar no puede superar 5 MB', ja: 'アバターは5MB以下にしてください' },
  AVATAR_TYPE: { status: 400, zh: '头像只能是 PNG、JPG、GIF 或 WebP 图片', en: 'The avatar must be a PNG, JPG, GIF or WebP image', es: 'El avatar debe ser una imagen PNG, JPG, GIF o WebP', ja: 'アバターはPNG、JPG、GIF、WebP画像のみです' },
  AVATAR_NOT_FOUND: { status: 404, zh: '头像不存在', en: 'The avatar does not exist', es: 'El avatar no existe', ja: 'アバターが存在しません' },

  // ---- cache manager (api/redis) and session safety (cookie + CSRF) ----------------------------------------
  CACHE_KEY_NOT_FOUND: { status: 404, zh: '缓存键不存在：{key}', en: 'No such cache key: {key}', es: 'La clave de caché no existe: {key}', ja: 'キャッシュキーが存在しません：{key}' },
  CACHE_KEY_PROTECTED: { status: 409, zh: '系统键不可删除：{namespace}', en: 'System keys cannot be deleted: {namespace}', es: 'Las claves del sistema no se pueden eliminar: {namespace}', ja: 'システムキーは削除できません：{namespace}' },
  CACHE_DELETE_TARGET: { status: 400, zh: '请提供要删除的键或命名空间', en: 'Please give the key or the namespace to delete', es: 'Indique la clave o el espacio de nombres que desea eliminar', ja: '削除するキーまたは名前空間を指定してください' },
  CSRF_REFUSED: { status: 403, zh: '请求未通过跨站请求伪造校验，请刷新页面后重试', en: 'The request failed the cross-site request forgery check; please reload the page and try again', es: 'La solicitud no superó la comprobación contra falsificación de solicitudes entre sitios; recargue la página e inténtelo de nuevo', ja: 'クロスサイトリクエストフォージェリの検証に失敗しました。ページを再読み込みしてやり直してください' },

  // ---- generic CRUD ----------------------------------------------------------------------------------------
  ID_INVALID: { status: 400, zh: 'ID必须是正整数', en: 'The ID must be a positive integer', es: 'El ID debe ser un entero positivo', ja: 'IDは正の整数である必要があります' },
  NAME_OR_ID_CARD_REQUIRED: { status: 400, zh: '请至少填写姓名或身份证号', en: 'Please enter at least the name or the ID card number', es: 'Indique al menos el nombre o el número de documento de identidad', ja: '氏名または身分証番号の少なくとも一方を入力してください' },
  ID_REQUIRED: { status: 400, zh: 'ID不能为空', en: 'The ID is required', es: 'El ID es obligatorio', ja: 'IDは必須です' },
  RECORD_NOT_FOUND: { status: 404, zh: '{resource}不存在或无权访问', en: '{resource} does not exist or is not accessible', es: '{resource}: no existe o no tiene acceso', ja: '{resource}が存在しないか、アクセス権がありません' },
  RECORDS_NOT_FOUND: { status: 404, zh: '{resource}不存在或无权访问: {ids}', en: '{resource} does not exist or is not accessible: {ids}', es: '{resource}: no existe o no tiene acceso: {ids}', ja: '{resource}が存在しないか、アクセス権がありません: {ids}' },
  CREATE_WITH_ID: { status: 400, zh: '新增{resource}不能带有ID', en: 'A new {resource} cannot carry an ID', es: 'Un nuevo registro de {resource} no puede llevar ID', ja: '新規の{resource}にIDは指定できません' },
  DELETE_IDS_REQUIRED: { status: 400, zh: '请提供要删除的ID数组', en: 'Please send an array of the IDs to delete', es: 'Envíe una lista de los ID que desea eliminar', ja: '削除するIDの配列を指定してください' },
  DELETE_TOO_MANY: { status: 400, zh: '一次最多删除1000条', en: 'At most 1000 records can be deleted at once', es: 'Se pueden eliminar como máximo 1000 registros a la vez', ja: '一度に削除できるのは1000件までです' },
  DUPLICATE: { status: 409, zh: '{resource}已存在', en: '{resource} already exists', es: '{resource} ya existe', ja: '{resource}は既に存在します' },
  SORT_FIELD: { status: 400, zh: '不支持的排序字段: {value}', en: 'Unsupported sort field: {value}', es: 'Campo de ordenación no admitido: {value}', ja: 'サポートされていない並べ替え項目です: {value}' },
  SORT_DIRECTION: { status: 400, zh: '排序方向只能是 asc 或 desc: {value}', en: 'The sort direction must be asc or desc: {value}', es: 'La dirección de ordenación debe ser asc o desc: {value}', ja: '並べ替えの方向は asc または desc のみです: {value}' },
  PAGE_INVALID: { status: 400, zh: 'page 必须是不小于0的整数', en: 'page must be an integer of at least 0', es: 'page debe ser un entero mayor o igual que 0', ja: 'page は0以上の整数である必要があります' },
  SIZE_INVALID: { status: 400, zh: 'size 必须是大于0的整数', en: 'size must be an integer greater than 0', es: 'size debe ser un entero mayor que 0', ja: 'size は0より大きい整数である必要があります' },
  SEARCH_TOO_LONG: { status: 400, zh: '搜索内容过长', en: 'The search text is too long', es: 'El texto de búsqueda es demasiado largo', ja: '検索内容が長すぎます' },
  SEARCH_INVALID: { status: 400, zh: '搜索内容无效', en: 'The search text is invalid', es: 'El texto de búsqueda no es válido', ja: '検索内容が無効です' },
  FILTER_INVALID: { status: 400, zh: '{label}筛选值无效', en: 'Invalid filter value for {label}', es: 'Valor de filtro no válido para {label}', ja: '{label}の絞り込み値が無効です' },
  FILTER_TOO_LONG: { status: 400, zh: '{label}筛选值过长', en: 'The filter value for {label} is too long', es: 'El valor de filtro de {label} es demasiado largo', ja: '{label}の絞り込み値が長すぎます' },
  FILTER_INVALID_REASON: { status: 400, zh: '{label}筛选值无效: {reason}', en: 'Invalid filter value for {label}: {reason}', es: 'Valor de filtro no válido para {label}: {reason}', ja: '{label}の絞り込み値が無効です: {reason}' },
  LINKS_TOO_MANY: { status: 400, zh: '一次最多提交{max}项', en: 'At most {max} items can be sent at once', es: 'Se pueden enviar como máximo {max} elementos a la vez', ja: '一度に送信できるのは{max}件までです' },
  LINKED_NOT_FOUND: { status: 400, zh: '{resource}不存在: {ids}', en: '{resource} does not exist: {ids}', es: '{resource} no existe: {ids}', ja: '{resource}が存在しません: {ids}' },
  PARENT_NOT_FOUND: { status: 400, zh: '{parent}不存在', en: '{parent} does not exist', es: '{parent} no existe', ja: '{parent}が存在しません' },
  PARENT_CYCLE: { status: 400, zh: '上级不能为自己或下级', en: 'The parent cannot be the item itself or one of its descendants', es: 'El superior no puede ser el propio elemento ni uno de sus descendientes', ja: '上位に自分自身または下位は指定できません' },

  // ---- field validation (shared definitions; {label} is the field's label) ---------------------------------
  VALIDATION: { status: 400, zh: '参数错误', en: 'Invalid input', es: 'Datos no válidos', ja: '入力内容が不正です' },
  FIELD_REQUIRED: { status: 400, zh: '{label}不能为空', en: '{label} is required', es: '{label} es obligatorio', ja: '{label}は必須です' },
  FIELD_ENTER: { status: 400, zh: '请输入{label}', en: 'Please enter {label}', es: 'Introduzca {label}', ja: '{label}を入力してください' },
  FIELD_CHOOSE: { status: 400, zh: '请选择{label}', en: 'Please choose {label}', es: 'Seleccione {label}', ja: '{label}を選択してください' },
  FIELD_TOO_LONG: { status: 400, zh: '{label}长度不能超过{max}个字符', en: '{label} may have at most {max} characters', es: '{label} admite como máximo {max} caracteres', ja: '{label}は{max}文字以内で入力してください' },
  FIELD_NUL: { status: 400, zh: '{label}不能包含空字符', en: '{label} may not contain NUL characters', es: '{label} no puede contener caracteres nulos', ja: '{label}にNUL文字は使用できません' },
  FIELD_NOT_TEXT: { status: 400, zh: '{label}必须是文本', en: '{label} must be text', es: '{label} debe ser texto', ja: '{label}は文字列である必要があります' },
  FIELD_MIN: { status: 400, zh: '{label}不能小于{min}', en: '{label} may not be less than {min}', es: '{label} no puede ser menor que {min}', ja: '{label}は{min}以上にしてください' },
  FIELD_MAX: { status: 400, zh: '{label}不能大于{max}', en: '{label} may not be greater than {max}', es: '{label} no puede ser mayor que {max}', ja: '{label}は{max}以下にしてください' },
  FIELD_FORMAT: { status: 400, zh: '{label}格式不正确', en: '{label} has an invalid format', es: '{label} tiene un formato no válido', ja: '{label}の形式が正しくありません' },
  EMAIL_INVALID: { status: 400, zh: '请输入正确的邮箱地址', en: 'Please enter a valid e-mail address', es: 'Introduzca un correo electrónico válido', ja: '正しいメールアドレスを入力してください' },
  MOBILE_INVALID: { status: 400, zh: '请输入正确的11位手机号码', en: 'Please enter a valid 11-digit mobile number', es: 'Introduzca un número de móvil válido de 11 dígitos', ja: '正しい11桁の携帯電話番号を入力してください' },
  ID_CARD_INVALID: { status: 400, zh: '身份证号码不正确', en: 'Invalid ID card number', es: 'Número de documento de identidad no válido', ja: '身分証番号が正しくありません' },
  FIELD_INTEGER: { status: 400, zh: '{label}必须是整数', en: '{label} must be an integer', es: '{label} debe ser un número entero', ja: '{label}は整数である必要があります' },
  FIELD_INVALID: { status: 400, zh: '{label}无效', en: '{label} is invalid', es: '{label} no es válido', ja: '{label}が無効です' },
  FIELD_NUMBER: { status: 400, zh: '{label}必须是数字', en: '{label} must be a number', es: '{label} debe ser un número', ja: '{label}は数値である必要があります' },
  FIELD_MONEY_SCALE: { status: 400, zh: '{label}最多两位小数', en: '{label} may have at most two decimals', es: '{label} admite como máximo dos decimales', ja: '{label}は小数点以下2桁までです' },
  FIELD_MONEY_TOO_LARGE: { status: 400, zh: '{label}金额过大', en: 'The amount of {label} is too large', es: 'El importe de {label} es demasiado grande', ja: '{label}の金額が大きすぎます' },
  FIELD_RATIO_SCALE: { status: 400, zh: '{label}最多六位小数', en: '{label} may have at most six decimals', es: '{label} admite como máximo seis decimales', ja: '{label}は小数点以下6桁までです' },
  FIELD_RATIO_RANGE: { status: 400, zh: '{label}必须在0到1之间', en: '{label} must be between 0 and 1', es: '{label} debe estar entre 0 y 1', ja: '{label}は0から1の間である必要があります' },
  FIELD_DATE: { status: 400, zh: '{label}日期格式应为YYYY-MM-DD', en: '{label}: the date must be YYYY-MM-DD', es: '{label}: la fecha debe tener el formato AAAA-MM-DD', ja: '{label}の日付はYYYY-MM-DD形式で入力してください' },
  FIELD_DATE_NAMED: { status: 400, zh: '{label}格式应为YYYY-MM-DD', en: '{label} must be a date in the form YYYY-MM-DD', es: '{label} debe ser una fecha con el formato AAAA-MM-DD', ja: '{label}はYYYY-MM-DD形式で入力してください' },
  FIELD_MONTH: { status: 400, zh: '{label}月份格式应为YYYY-MM', en: '{label}: the month must be YYYY-MM', es: '{label}: el mes debe tener el formato AAAA-MM', ja: '{label}の月はYYYY-MM形式で入力してください' },
  FIELD_MONTH_NAMED: { status: 400, zh: '{label}格式应为YYYY-MM', en: '{label} must be a month in the form YYYY-MM', es: '{label} debe ser un mes con el formato AAAA-MM', ja: '{label}はYYYY-MM形式で入力してください' },
  FIELD_DATETIME: { status: 400, zh: '{label}时间格式不正确', en: '{label}: invalid time', es: '{label}: hora no válida', ja: '{label}の日時の形式が正しくありません' },
  FIELD_BOOLEAN: { status: 400, zh: '{label}必须是是或否', en: '{label} must be yes or no', es: '{label} debe ser sí o no', ja: '{label}は「はい」か「いいえ」である必要があります' },
  FIELD_NOT_OPTION: { status: 400, zh: '{label}"{value}"不是可选值', en: '{label} "{value}" is not one of the options', es: '{label} "{value}" no es una de las opciones', ja: '{label}「{value}」は選択肢にありません' },
  FIELD_REF_MISSING: { status: 400, zh: '{label}"{value}"不存在或无权访问', en: '{label} "{value}" does not exist or is not accessible', es: '{label} "{value}" no existe o no tiene acceso', ja: '{label}「{value}」が存在しないか、アクセス権がありません' },
  // a definition's own sentence (resources/*: `required: '请输入员工姓名'`, a pattern's or a unique rule's message),
  // spec-binding in Chinese; other languages translate {text} with the definitions' labels (resources/labels.ts)
  FIELD_REQUIRED_TEXT: { status: 400, zh: '{text}', en: '{text}', es: '{text}', ja: '{text}' },
  FIELD_PATTERN_TEXT: { status: 400, zh: '{text}', en: '{text}', es: '{text}', ja: '{text}' },
  DUPLICATE_TEXT: { status: 409, zh: '{text}', en: '{text}', es: '{text}', ja: '{text}' },
  // zod's own checks (errors/zodIssues.ts): {label} is the field's label or, on contract routes, its API name
  FIELD_TOO_SHORT: { status: 400, zh: '{label}长度不能少于{min}个字符', en: '{label} must have at least {min} characters', es: '{label} debe tener al menos {min} caracteres', ja: '{label}は{min}文字以上で入力してください' },
  FIELD_TOO_FEW: { status: 400, zh: '{label}至少需要{min}项', en: '{label} needs at least {min} items', es: '{label} necesita al menos {min} elementos', ja: '{label}は{min}件以上必要です' },
  FIELD_TOO_MANY: { status: 400, zh: '{label}最多{max}项', en: '{label} may have at most {max} items', es: '{label} admite como máximo {max} elementos', ja: '{label}は{max}件までです' },
  FIELD_MISSING: { status: 400, zh: '缺少参数{label}', en: 'The parameter {label} is missing', es: 'Falta el parámetro {label}', ja: 'パラメーター{label}がありません' },
  FIELD_NOT_OBJECT: { status: 400, zh: '{label}必须是对象', en: '{label} must be an object', es: '{label} debe ser un objeto', ja: '{label}はオブジェクトである必要があります' },
  FIELD_NOT_LIST: { status: 400, zh: '{label}必须是列表', en: '{label} must be a list', es: '{label} debe ser una lista', ja: '{label}はリストである必要があります' },
  UNKNOWN_PARAMETERS: { status: 400, zh: '不支持的参数：{keys}', en: 'Unsupported parameters: {keys}', es: 'Parámetros no admitidos: {keys}', ja: 'サポートされていないパラメーターです：{keys}' },
  REF_NOT_ACCESSIBLE: { status: 400, zh: '{label}不存在或无权访问', en: '{label} does not exist or is not accessible', es: '{label}: no existe o no tiene acceso', ja: '{label}が存在しないか、アクセス権がありません' },

  // ---- contracts' own checks (packages/shared/src/contracts; shared ones in contracts/schemas.ts) ------------
  PAGE_NUMBER_INVALID: { status: 400, zh: '页码必须是非负整数', en: 'The page number must be a non-negative integer', es: 'El número de página debe ser un entero no negativo', ja: 'ページ番号は0以上の整数である必要があります' },
  PAGE_NUMBER_POSITIVE: { status: 400, zh: '页码必须是正整数', en: 'The page number must be a positive integer', es: 'El número de página debe ser un entero positivo', ja: 'ページ番号は正の整数である必要があります' },
  PAGE_NUMBER_TOO_LARGE: { status: 400, zh: '页码过大', en: 'The page number is too large', es: 'El número de página es demasiado grande', ja: 'ページ番号が大きすぎます' },
  PAGE_SIZE_RANGE: { status: 400, zh: '每页条数必须是1到{max}的整数', en: 'The page size must be an integer from 1 to {max}', es: 'El tamaño de página debe ser un entero de 1 a {max}', ja: '1ページの件数は1から{max}までの整数である必要があります' },
  PAGE_SIZE_BETWEEN: { status: 400, zh: '每页条数必须在1到{max}之间', en: 'The page size must be between 1 and {max}', es: 'El tamaño de página debe estar entre 1 y {max}', ja: '1ページの件数は1から{max}の間である必要があります' },
  MONTH_REQUIRED: { status: 400, zh: '请选择月份', en: 'Please choose the month', es: 'Elija el mes', ja: '月を選択してください' },
  MONTH_PATTERN_INVALID: { status: 400, zh: '月份格式应为yyyy-MM', en: 'The month must be yyyy-MM', es: 'El mes debe tener el formato aaaa-MM', ja: '月はyyyy-MM形式で入力してください' },
  DATE_FORMAT_INVALID: { status: 400, zh: '日期格式应为yyyy-MM-dd', en: 'The date must be yyyy-MM-dd', es: 'La fecha debe tener el formato aaaa-MM-dd', ja: '日付はyyyy-MM-dd形式で入力してください' },
  COMPANY_REQUIRED: { status: 400, zh: '请选择一个单位', en: 'Please choose a company', es: 'Elija una empresa', ja: '会社を1つ選択してください' },
  AMOUNT_OUT_OF_RANGE: { status: 400, zh: '金额超出范围', en: 'The amount is out of range', es: 'El importe está fuera de rango', ja: '金額が範囲外です' },
  TEXT_TOO_LONG: { status: 400, zh: '{label}不能超过{max}个字符', en: '{label} may have at most {max} characters', es: '{label} admite como máximo {max} caracteres', ja: '{label}は{max}文字以内で入力してください' },
  TEXT_OVERLONG: { status: 400, zh: '{label}过长', en: '{label} is too long', es: '{label} es demasiado largo', ja: '{label}が長すぎます' },
  FLAG_TRUE_FALSE: { status: 400, zh: '{label} 只能是 true 或 false', en: '{label} can only be true or false', es: '{label} solo puede ser true o false', ja: '{label} は true か false のみです' },
  FIELD_TRUE_FALSE: { status: 400, zh: '{label}必须是 true 或 false', en: '{label} must be true or false', es: '{label} debe ser true o false', ja: '{label}は true か false である必要があります' },
  ID_LIST_INVALID: { status: 400, zh: '{label} 必须是ID数组', en: '{label} must be an array of IDs', es: '{label} debe ser una lista de ID', ja: '{label} はIDの配列である必要があります' },
  AT_MOST_AT_ONCE: { status: 400, zh: '一次最多{max}条', en: 'At most {max} at once', es: 'Como máximo {max} a la vez', ja: '一度に最大{max}件です' },
  SORT_FIELD_UNSUPPORTED: { status: 400, zh: '不支持的排序字段', en: 'Unsupported sort field', es: 'Campo de ordenación no admitido', ja: 'サポートされていない並べ替え項目です' },
  PORT_RANGE: { status: 400, zh: '端口必须是1到65535之间的整数', en: 'The port must be an integer from 1 to 65535', es: 'El puerto debe ser un entero de 1 a 65535', ja: 'ポートは1から65535までの整数である必要があります' },
  AUTH_SESSION_MODE: { status: 400, zh: 'session 只能是 cookie 或 token', en: 'session can only be cookie or token', es: 'session solo puede ser cookie o token', ja: 'session は cookie か token のみです' },
  HOME_WITHIN_DAYS: { status: 400, zh: 'withinDays 必须是0到{max}之间的整数', en: 'withinDays must be an integer from 0 to {max}', es: 'withinDays debe ser un entero de 0 a {max}', ja: 'withinDays は0から{max}までの整数である必要があります' },
  JOB_RETRY_COUNT: { status: 400, zh: '重试次数必须是0到10之间的整数', en: 'The retry count must be an integer from 0 to 10', es: 'El número de reintentos debe ser un entero de 0 a 10', ja: '再試行回数は0から10までの整数である必要があります' },
  JOB_RETRY_INTERVAL: { status: 400, zh: '重试间隔必须是1到3600秒之间的整数', en: 'The retry interval must be an integer from 1 to 3600 seconds', es: 'El intervalo de reintento debe ser un entero de 1 a 3600 segundos', ja: '再試行間隔は1から3600秒までの整数である必要があります' },
  JOB_MISFIRE_POLICY: { status: 400, zh: '错过策略只能是 once（补跑一次）或 skip（跳过）', en: 'The misfire policy can only be once (run once) or skip', es: 'La política de ejecución perdida solo puede ser once (ejecutar una vez) o skip (omitir)', ja: '実行漏れポリシーは once（1回補完）か skip（スキップ）のみです' },
  CACHE_NAMESPACE_FORMAT: { status: 400, zh: '命名空间只能包含字母、数字、下划线和连字符', en: 'The namespace may only contain letters, digits, underscores and hyphens', es: 'El espacio de nombres solo puede contener letras, dígitos, guiones bajos y guiones', ja: '名前空間には英字、数字、アンダースコア、ハイフンのみ使用できます' },
  DATASOURCE_TYPE_INVALID: { status: 400, zh: '数据源类型不正确', en: 'The data source type is not valid', es: 'El tipo de fuente de datos no es válido', ja: 'データソースの種類が正しくありません' },
  DATASOURCE_FIELDS_TOO_MANY: { status: 400, zh: '字段不能超过200个', en: 'At most 200 fields', es: 'Como máximo 200 campos', ja: '項目は200個までです' },
  SI_CHANGE_KIND_INVALID: { status: 400, zh: '名单类型应为 add（增员）、remove（减员）或 base（基数变更）', en: 'The list type must be add, remove or base (base change)', es: 'El tipo de lista debe ser add (alta), remove (baja) o base (cambio de base)', ja: 'リストの種類は add（加入）、remove（脱退）、base（基数変更）のいずれかです' },
  STORAGE_PROVIDER_INVALID: { status: 400, zh: '存储方式只能是 local 或 s3', en: 'The storage can only be local or s3', es: 'El almacenamiento solo puede ser local o s3', ja: 'ストレージは local か s3 のみです' },
  STORAGE_ZONE_INVALID: { status: 400, zh: '存储区域只能是 华东、华北、华南、北美 或 东南亚', en: 'The storage region can only be East China, North China, South China, North America or Southeast Asia', es: 'La región solo puede ser China Oriental, China del Norte, China del Sur, Norteamérica o Sudeste Asiático', ja: 'ストレージ地域は 華東、華北、華南、北米、東南アジア のいずれかです' },
  STORAGE_BUCKET_TYPE_INVALID: { status: 400, zh: '空间类型只能是 公开 或 私有', en: 'The bucket type can only be public or private', es: 'El tipo de espacio solo puede ser público o privado', ja: 'バケットの種類は 公開 か 非公開 のみです' },
  EMAIL_STATUS_FILTER: { status: 400, zh: '状态只能是 SENT 或 FAILED', en: 'The status can only be SENT or FAILED', es: 'El estado solo puede ser SENT o FAILED', ja: '状態は SENT か FAILED のみです' },
  ALIPAY_STATUS_FILTER: { status: 400, zh: '状态只能是 WAITING、PAID 或 CLOSED', en: 'The status can only be WAITING, PAID or CLOSED', es: 'El estado solo puede ser WAITING, PAID o CLOSED', ja: '状態は WAITING、PAID、CLOSED のいずれかです' },

  // ---- imports and exports ---------------------------------------------------------------------------------
  UPLOAD_REQUIRED: { status: 400, zh: '请选择要上传的文件', en: 'Please choose a file to upload', es: 'Elija un archivo para subir', ja: 'アップロードするファイルを選択してください' },
  UPLOAD_FIELD: { status: 400, zh: '请使用字段 file 上传文件', en: 'Please upload the file in the field "file"', es: 'Suba el archivo en el campo "file"', ja: 'ファイルはフィールド file でアップロードしてください' },
  UPLOAD_ONE_FILE: { status: 400, zh: '一次只能上传一个文件', en: 'Only one file can be uploaded at a time', es: 'Solo se puede subir un archivo a la vez', ja: '一度にアップロードできるファイルは1つだけです' },
  UPLOAD_FIELD_NAME: { status: 400, zh: '上传表单含有无效的字段名', en: 'The upload form has an invalid field name', es: 'El formulario de subida tiene un nombre de campo no válido', ja: 'アップロードフォームに無効なフィールド名があります' },
  UPLOAD_FAILED: { status: 400, zh: '上传文件异常', en: 'The upload failed', es: 'La subida ha fallado', ja: 'ファイルのアップロードに失敗しました' },
  UPLOAD_TOO_LARGE: { status: 413, zh: '上传文件大小不能超过 {max}', en: 'The file may not exceed {max}', es: 'El archivo no puede superar {max}', ja: 'ファイルサイズは{max}以下にしてください' },
  FILE_CORRUPT: { status: 400, zh: '文件已损坏，无法读取', en: 'The file is damaged and cannot be read', es: 'El archivo está dañado y no se puede leer', ja: 'ファイルが破損しているため読み込めません' },
  FILE_NOT_EXCEL: { status: 400, zh: '上传文件只能是 xls/xlsx 格式!', en: 'Only xls/xlsx files can be uploaded!', es: '¡Solo se pueden subir archivos xls/xlsx!', ja: 'アップロードできるのは xls/xlsx 形式のみです！' },
  FILE_NOT_WORKBOOK: { status: 400, zh: '不是Excel工作簿', en: 'Not an Excel workbook', es: 'No es un libro de Excel', ja: 'Excelブックではありません' },
  FILE_ENCRYPTED: { status: 400, zh: '文件已加密，请先取消密码保护', en: 'The file is encrypted; remove its password protection first', es: 'El archivo está cifrado; quite primero la protección con contraseña', ja: 'ファイルは暗号化されています。先にパスワード保護を解除してください' },
  FILE_NO_SHEET: { status: 400, zh: '工作簿中没有工作表', en: 'The workbook has no worksheet', es: 'El libro no tiene hojas', ja: 'ブックにワークシートがありません' },
  FILE_NO_DATA: { status: 400, zh: '文件中没有数据', en: 'The file contains no data', es: 'El archivo no contiene datos', ja: 'ファイルにデータがありません' },
  IMPORT_COLUMN_TWICE: { status: 400, zh: '列"{label}"重复出现', en: 'The column "{label}" appears twice', es: 'La columna "{label}" aparece dos veces', ja: '列「{label}」が重複しています' },
  IMPORT_COLUMNS_MISSING: { status: 400, zh: '缺少必填列：{labels}', en: 'Required columns are missing: {labels}', es: 'Faltan columnas obligatorias: {labels}', ja: '必須列がありません：{labels}' },
  IMPORT_ERROR_FILE_GONE: { status: 404, zh: '错误文件不存在或已过期', en: 'The error file does not exist or has expired', es: 'El archivo de errores no existe o ha caducado', ja: 'エラーファイルが存在しないか、期限切れです' },
  IMPORT_ERROR_FILE_OWNER: { status: 403, zh: '只能下载本人导入产生的错误文件', en: 'You can only download the error files of your own imports', es: 'Solo puede descargar los archivos de errores de sus propias importaciones', ja: 'ダウンロードできるのは自分のインポートのエラーファイルのみです' },

  // ---- system: users, roles, departments, jobs, menus, permissions, dictionaries, logs -------------------
  USER_ROLES_REQUIRED: { status: 400, zh: '角色不能为空', en: 'Roles are required', es: 'Los roles son obligatorios', ja: 'ロールは必須です' },
  DEPT_NOT_FOUND: { status: 400, zh: '部门不存在', en: 'The department does not exist', es: 'El departamento no existe', ja: '部署が存在しません' },
  JOB_NOT_FOUND: { status: 400, zh: '岗位不存在', en: 'The position does not exist', es: 'El puesto no existe', ja: '職位が存在しません' },
  USER_DISABLE_SELF: { status: 400, zh: '不能停用当前登录的用户', en: 'You cannot disable the user you are logged in as', es: 'No puede desactivar el usuario con el que ha iniciado sesión', ja: 'ログイン中のユーザーは無効にできません' },
  USER_DELETE_SELF: { status: 400, zh: '不能删除当前登录的用户', en: 'You cannot delete the user you are logged in as', es: 'No puede eliminar el usuario con el que ha iniciado sesión', ja: 'ログイン中のユーザーは削除できません' },
  USER_ADMIN_ROLE: { status: 403, zh: '无权分配拥有超级管理员权限的角色', en: 'You may not assign a role with super-administrator rights', es: 'No puede asignar un rol con permisos de superadministrador', ja: 'スーパー管理者権限を持つロールは割り当てられません' },
  USER_DEPT_FORBIDDEN: { status: 403, zh: '无权操作该部门的用户', en: "You may not manage this department's users", es: 'No puede gestionar los usuarios de este departamento', ja: 'この部署のユーザーを操作する権限がありません' },
  USERNAME_TAKEN: { status: 409, zh: '用户名已存在', en: 'The username already exists', es: 'El nombre de usuario ya existe', ja: 'ユーザー名は既に存在します' },
  DEPT_FILTER_INVALID: { status: 400, zh: '部门筛选值无效', en: 'Invalid department filter', es: 'Filtro de departamento no válido', ja: '部署の絞り込み値が無効です' },
  DEPT_TOP_FORBIDDEN: { status: 403, zh: '无权在顶级创建部门', en: 'You may not create top-level departments', es: 'No puede crear departamentos de nivel superior', ja: '最上位に部署を作成する権限がありません' },
  DEPT_ROOT_DELETE: { status: 400, zh: '根部门不能删除', en: 'The root department cannot be deleted', es: 'No se puede eliminar el departamento raíz', ja: 'ルート部署は削除できません' },
  DEPT_HAS_USERS: { status: 409, zh: '所选部门存在用户关联，请解除后再试！', en: 'The selected departments have users; remove them first!', es: 'Los departamentos seleccionados tienen usuarios; quítelos primero.', ja: '選択した部署にユーザーが関連付けられています。解除してから再試行してください！' },
  DEPT_HAS_JOBS: { status: 409, zh: '所选部门存在岗位关联，请解除后再试！', en: 'The selected departments have positions; remove them first!', es: 'Los departamentos seleccionados tienen puestos; quítelos primero.', ja: '選択した部署に職位が関連付けられています。解除してから再試行してください！' },
  DEPT_HAS_ROLES: { status: 409, zh: '所选部门存在角色关联，请解除后再试！', en: 'The selected departments are used by roles; remove them first!', es: 'Los departamentos seleccionados están en roles; quítelos primero.', ja: '選択した部署にロールが関連付けられています。解除してから再試行してください！' },
  JOB_DEPT_MISSING: { status: 400, zh: '所属部门不存在或无权访问', en: 'The department does not exist or is not accessible', es: 'El departamento no existe o no tiene acceso', ja: '所属部署が存在しないか、アクセス権がありません' },
  JOB_HAS_USERS: { status: 409, zh: '所选岗位存在用户关联，请解除关联再试！', en: 'The selected positions have users; remove them first!', es: 'Los puestos seleccionados tienen usuarios; quítelos primero.', ja: '選択した職位にユーザーが関連付けられています。解除してから再試行してください！' },
  ROLE_NOT_FOUND: { status: 404, zh: '角色不存在', en: 'The role does not exist', es: 'El rol no existe', ja: 'ロールが存在しません' },
  ROLE_SCOPE_ALL_FORBIDDEN: { status: 403, zh: '数据权限不足，不能设置“全部”数据范围', en: 'Your data scope is too narrow to grant the "all" scope', es: 'Su ámbito de datos no permite conceder el ámbito "todos"', ja: 'データ権限が不足しているため「全部」のデータ範囲は設定できません' },
  ROLE_SCOPE_DEPTS_REQUIRED: { status: 400, zh: '自定义数据权限不能为空', en: 'A custom data scope needs departments', es: 'Un ámbito de datos personalizado necesita departamentos', ja: 'カスタムデータ権限は必須です' },
  ROLE_SCOPE_DEPT_FORBIDDEN: { status: 403, zh: '无权分配该部门的数据权限', en: "You may not grant this department's data", es: 'No puede conceder los datos de este departamento', ja: 'この部署のデータ権限を割り当てる権限がありません' },
  ROLE_HAS_USERS: { status: 409, zh: '所选角色存在用户关联，请解除关联再试！', en: 'The selected roles have users; remove them first!', es: 'Los roles seleccionados tienen usuarios; quítelos primero.', ja: '選択したロールにユーザーが関連付けられています。解除してから再試行してください！' },
  ROLE_ADMIN_ONLY: { status: 403, zh: '只有超级管理员才能授予或收回超级管理员权限', en: 'Only a super administrator can grant or revoke super-administrator rights', es: 'Solo un superadministrador puede conceder o retirar permisos de superadministrador', ja: 'スーパー管理者権限を付与・取り消しできるのはスーパー管理者のみです' },
  ROLE_FOREIGN_CODES: { status: 403, zh: '不能授予自己没有的权限：{codes}', en: 'You cannot grant permissions you do not hold: {codes}', es: 'No puede conceder permisos que no tiene: {codes}', ja: '自分が持っていない権限は付与できません：{codes}' },
  ROLE_LEVEL_DENIED: { status: 403, zh: '角色权限不足', en: 'Your role level is too low for this', es: 'Su nivel de rol no es suficiente', ja: 'ロールのレベルが不足しています' },
  REF_LIST_FORMAT: { status: 400, zh: '{label}格式不正确，应为 [{id}]', en: '{label} has an invalid format, expected [{id}]', es: '{label} tiene un formato no válido; se espera [{id}]', ja: '{label}の形式が正しくありません。[{id}] の形式にしてください' },
  DEPT_HAS_CHILDREN: { status: 409, zh: '所选部门存在下级部门，请先删除下级部门', en: 'The selected departments have sub-departments; delete those first', es: 'Los departamentos seleccionados tienen subdepartamentos; elimínelos primero', ja: '選択した部署に下位部署があります。先に下位部署を削除してください' },
  PERMISSION_BUILT_IN_FIXED: { status: 400, zh: '内置权限不能修改编码或上级', en: 'The code and parent of a built-in permission cannot change', es: 'No se pueden cambiar el código ni el superior de un permiso integrado', ja: '組み込み権限のコードと上位は変更できません' },
  EMAIL_FORMAT: { status: 400, zh: '邮箱格式错误', en: 'Invalid e-mail address', es: 'Correo electrónico no válido', ja: 'メールアドレスの形式が正しくありません' },
  EMAIL_NEW_REQUIRED: { status: 400, zh: '新邮箱不能为空', en: 'The new e-mail address is required', es: 'El nuevo correo es obligatorio', ja: '新しいメールアドレスは必須です' },
  MENU_LINK: { status: 400, zh: '外链必须以http://或者https://开头', en: 'External links must start with http:// or https://', es: 'Los enlaces externos deben empezar por http:// o https://', ja: '外部リンクは http:// または https:// で始まる必要があります' },
  PERMISSION_ADMIN_DELETE: { status: 400, zh: '超级管理员权限不能删除', en: 'The super-administrator permission cannot be deleted', es: 'No se puede eliminar el permiso de superadministrador', ja: 'スーパー管理者権限は削除できません' },
  PERMISSION_BUILT_IN_DELETE: { status: 400, zh: '内置权限不能删除：{codes}', en: 'Built-in permissions cannot be deleted: {codes}', es: 'No se pueden eliminar permisos integrados: {codes}', ja: '組み込み権限は削除できません：{codes}' },
  DICT_NOT_FOUND: { status: 404, zh: '所属字典不存在', en: 'The dictionary does not exist', es: 'El diccionario no existe', ja: '所属する辞書が存在しません' },
  DICT_NAME_REQUIRED: { status: 400, zh: '请提供字典名称 dictName', en: 'Please give the dictionary name (dictName)', es: 'Indique el nombre del diccionario (dictName)', ja: '辞書名 dictName を指定してください' },
  LOG_NOT_FOUND: { status: 404, zh: '异常日志不存在', en: 'The error log entry does not exist', es: 'La entrada del registro de errores no existe', ja: 'エラーログが存在しません' },
  // ---- dispatch: logins for staff (modules/dispatch/staffAccounts) -------------------------------------------
  STAFF_ACCOUNT_IDS_REQUIRED: { status: 400, zh: '请选择要开通账号的员工', en: 'Please choose the staff to open logins for', es: 'Elija los empleados a los que abrir una cuenta', ja: 'アカウントを開設する従業員を選択してください' },
  STAFF_ACCOUNT_IDS_TOO_MANY: { status: 400, zh: '一次最多为{max}名员工开通账号', en: 'Logins can be opened for at most {max} staff at a time', es: 'Se pueden abrir cuentas para {max} empleados como máximo a la vez', ja: '一度にアカウントを開設できる従業員は{max}名までです' },
  STAFF_ACCOUNT_ID_INVALID: { status: 400, zh: '员工ID必须是正整数', en: 'Staff ids must be positive integers', es: 'Los ID de empleado deben ser enteros positivos', ja: '従業員IDは正の整数である必要があります' },
  STAFF_ACCOUNT_STAFF_FORBIDDEN: { status: 403, zh: '没有查看员工的权限，不能为员工开通账号', en: 'You may not view staff, so you cannot open logins for them', es: 'No puede ver empleados, por lo que no puede abrirles cuentas', ja: '従業員を閲覧する権限がないため、アカウントを開設できません' },
  STAFF_ACCOUNT_NO_JOB: { status: 400, zh: '系统中没有“普通员工”岗位，请先在岗位管理中添加', en: 'There is no "ordinary employee" position; add it under Positions first', es: 'No existe el puesto "empleado ordinario"; añádalo antes en Puestos', ja: '「普通员工」の職位がありません。先に職位管理で追加してください' },
  STAFF_ACCOUNT_NO_ROLE: { status: 400, zh: '系统中没有“普通员工”角色，请先在角色管理中添加', en: 'There is no "ordinary employee" role; add it under Roles first', es: 'No existe el rol "empleado ordinario"; añádalo antes en Roles', ja: '「普通员工」のロールがありません。先にロール管理で追加してください' },
  STAFF_ACCOUNT_NO_DEPT: { status: 400, zh: '“普通员工”岗位没有所属部门，请先在岗位管理中设置', en: 'The "ordinary employee" position has no department; set one under Positions first', es: 'El puesto "empleado ordinario" no tiene departamento; asígnelo antes en Puestos', ja: '「普通员工」の職位に所属部署がありません。先に職位管理で設定してください' },
  // ---- storage and pictures (core/storage, modules/storage) -------------------------------------------------
  STORAGE_TYPE_NOT_ALLOWED: { status: 400, zh: '不支持上传 {ext} 类型的文件', en: 'Files of type {ext} cannot be uploaded', es: 'No se pueden subir archivos de tipo {ext}', ja: '{ext} 形式のファイルはアップロードできません' },
  STORAGE_CONTENT_MISMATCH: { status: 400, zh: '文件内容与扩展名 {ext} 不符', en: 'The file content does not match its extension {ext}', es: 'El contenido del archivo no corresponde a su extensión {ext}', ja: 'ファイルの内容が拡張子 {ext} と一致しません' },
  STORAGE_MARKUP_REFUSED: { status: 400, zh: '不允许上传网页或脚本内容', en: 'Web pages and scripts cannot be uploaded', es: 'No se pueden subir páginas web ni scripts', ja: 'Webページやスクリプトはアップロードできません' },
  STORAGE_NAME_INVALID: { status: 400, zh: '文件名不合法', en: 'The file name is not valid', es: 'El nombre del archivo no es válido', ja: 'ファイル名が正しくありません' },
  STORAGE_EMPTY_FILE: { status: 400, zh: '文件内容为空', en: 'The file is empty', es: 'El archivo está vacío', ja: 'ファイルが空です' },
  STORAGE_OBJECT_MISSING: { status: 404, zh: '文件不存在', en: 'The file does not exist', es: 'El archivo no existe', ja: 'ファイルが存在しません' },
  // 404, not 403: a signed link is a capability URL, and a wrong or expired one points at nothing
  STORAGE_LINK_INVALID: { status: 404, zh: '下载链接无效或已过期', en: 'The download link is invalid or has expired', es: 'El enlace de descarga no es válido o ha caducado', ja: 'ダウンロードリンクが無効か、期限切れです' },
  STORAGE_REMOTE_FAILED: { status: 502, zh: '对象存储操作失败：{reason}', en: 'The object storage failed: {reason}', es: 'Error del almacenamiento de objetos: {reason}', ja: 'オブジェクトストレージの操作に失敗しました：{reason}' },
  STORAGE_CONFIG_TEST_FAILED: { status: 400, zh: '存储配置测试失败：{reason}', en: 'The storage settings did not work: {reason}', es: 'La configuración de almacenamiento no funcionó: {reason}', ja: 'ストレージ設定のテストに失敗しました：{reason}' },
  STORAGE_REMOTE_UNREACHABLE: { status: 502, zh: '无法连接对象存储服务，请检查服务地址、端口、存储区域和网络', en: 'Cannot reach the object storage; check the endpoint, port, zone and network', es: 'No se puede conectar con el almacenamiento de objetos; revise la dirección del servicio, el puerto, la zona y la red', ja: 'オブジェクトストレージに接続できません。サービスアドレス、ポート、ストレージリージョン、ネットワークを確認してください' },
  STORAGE_CONFIG_UNREACHABLE: { status: 400, zh: '存储配置测试失败：无法连接对象存储服务，请检查服务地址、端口、存储区域和网络', en: 'The storage settings did not work: cannot reach the object storage; check the endpoint, port, zone and network', es: 'La configuración de almacenamiento no funcionó: no se puede conectar con el almacenamiento de objetos; revise la dirección del servicio, el puerto, la zona y la red', ja: 'ストレージ設定のテストに失敗しました：オブジェクトストレージに接続できません。サービスアドレス、ポート、ストレージリージョン、ネットワークを確認してください' },
  STORAGE_TARGET_CHANGED: { status: 400, zh: '存储目标已更改（服务地址、存储区域、空间名称或AccessKey），请重新输入SecretKey', en: 'The storage target changed (endpoint, zone, bucket or AccessKey): enter the SecretKey again', es: 'El destino del almacenamiento cambió (servicio, zona, bucket o AccessKey): introduzca de nuevo la SecretKey', ja: 'ストレージの接続先が変更されました（サービスアドレス、リージョン、バケット、AccessKeyのいずれか）。SecretKeyを再入力してください' },
  STORAGE_BUCKET_TYPE_REQUIRED: { status: 400, zh: '空间类型不能为空', en: 'The bucket type is required', es: 'El tipo de bucket es obligatorio', ja: 'バケットの種類は必須です' },
  STORAGE_HOST_INVALID: { status: 400, zh: '外链域名必须是 http 或 https 地址', en: 'The domain must be an http or https address', es: 'El dominio debe ser una dirección http o https', ja: 'ドメインは http または https のアドレスである必要があります' },
  STORAGE_SELECT_ONE: { status: 400, zh: '请至少选择一条记录', en: 'Please select at least one record', es: 'Seleccione al menos un registro', ja: '少なくとも1件選択してください' },
  PICTURE_UNREADABLE: { status: 400, zh: '无法读取图片尺寸，图片可能已损坏', en: 'The image size cannot be read; the image may be damaged', es: 'No se puede leer el tamaño de la imagen; puede estar dañada', ja: '画像サイズを読み取れません。画像が破損している可能性があります' },
  // ---- integrations: e-mail tool (modules/integrations/email) -----------------------------------------------
  EMAIL_NOT_CONFIGURED: { status: 409, zh: '尚未配置邮件服务器，请先在 系统工具 › 邮件工具 › 配置 中填写SMTP信息', en: 'No mail server is configured yet: fill in the SMTP settings under System tools › E-mail tool › Settings first', es: 'Aún no hay servidor de correo configurado: complete los datos SMTP en Herramientas › Correo › Configuración', ja: 'メールサーバーが未設定です。先に システムツール › メールツール › 設定 でSMTP情報を入力してください' },
  EMAIL_FROM_REQUIRED: { status: 400, zh: '请输入发件人邮箱', en: 'Please enter the sender address', es: 'Introduzca la dirección del remitente', ja: '送信者のメールアドレスを入力してください' },
  EMAIL_USER_REQUIRED: { status: 400, zh: '请输入发件用户名', en: 'Please enter the SMTP user name', es: 'Introduzca el usuario SMTP', ja: 'SMTPユーザー名を入力してください' },
  EMAIL_PASS_REQUIRED: { status: 400, zh: '密码不能为空', en: 'The password is required', es: 'La contraseña es obligatoria', ja: 'パスワードは必須です' },
  EMAIL_HOST_REQUIRED: { status: 400, zh: 'SMTP地址不能为空', en: 'The SMTP host is required', es: 'El servidor SMTP es obligatorio', ja: 'SMTPサーバーは必須です' },
  EMAIL_HOST_FORMAT: { status: 400, zh: 'SMTP地址格式不正确，只填写主机名，如 smtp.qq.com', en: 'Invalid SMTP host: give the host name only, e.g. smtp.qq.com', es: 'Servidor SMTP no válido: indique solo el nombre del host, p. ej. smtp.qq.com', ja: 'SMTPサーバーの形式が正しくありません。smtp.qq.com のようにホスト名のみを入力してください' },
  EMAIL_PORT_REQUIRED: { status: 400, zh: 'SMTP端口不能为空', en: 'The SMTP port is required', es: 'El puerto SMTP es obligatorio', ja: 'SMTPポートは必須です' },
  EMAIL_PORT_RANGE: { status: 400, zh: 'SMTP端口必须是1到65535之间的整数', en: 'The SMTP port must be a whole number from 1 to 65535', es: 'El puerto SMTP debe ser un entero entre 1 y 65535', ja: 'SMTPポートは1～65535の整数で指定してください' },
  EMAIL_AUTH_FAILED: { status: 400, zh: '邮件服务器拒绝登录（535）：用户名或密码错误。QQ、163、企业邮箱请在密码处填写授权码/客户端专用密码，而不是登录密码', en: 'The mail server refused the login (535): wrong user name or password. For QQ, 163 and business mailboxes enter the authorization code / client password, not the login password', es: 'El servidor de correo rechazó el inicio de sesión (535): usuario o contraseña incorrectos. En QQ, 163 y correo empresarial use el código de autorización / contraseña de cliente, no la contraseña de acceso', ja: 'メールサーバーがログインを拒否しました（535）：ユーザー名またはパスワードが正しくありません。QQ・163・企業メールではログインパスワードではなく認証コード／クライアント専用パスワードを入力してください' },
  EMAIL_CONNECT_FAILED: { status: 502, zh: '无法连接邮件服务器 {host}:{port}，请检查SMTP地址、端口和SSL设置（465端口一般勾选SSL，587/25端口一般不勾选）', en: 'Cannot connect to the mail server {host}:{port}; check the SMTP host, port and SSL setting (port 465 usually uses SSL, ports 587/25 usually do not)', es: 'No se puede conectar con el servidor de correo {host}:{port}; revise el servidor SMTP, el puerto y SSL (el puerto 465 suele usar SSL, los puertos 587/25 no)', ja: 'メールサーバー {host}:{port} に接続できません。SMTPサーバー、ポート、SSL設定を確認してください（465番ポートは通常SSLあり、587/25番ポートは通常SSLなし）' },
  EMAIL_TLS_FAILED: { status: 502, zh: '与邮件服务器建立加密连接失败，请检查SSL设置：465端口一般勾选SSL，587/25端口一般不勾选（使用STARTTLS）', en: 'The encrypted connection to the mail server failed; check the SSL setting: port 465 usually uses SSL, ports 587/25 usually do not (STARTTLS)', es: 'Falló la conexión cifrada con el servidor de correo; revise SSL: el puerto 465 suele usar SSL, los puertos 587/25 no (STARTTLS)', ja: 'メールサーバーとの暗号化接続に失敗しました。SSL設定を確認してください：465番ポートは通常SSL、587/25番ポートは通常SSLなし（STARTTLS）です' },
  EMAIL_REJECTED: { status: 502, zh: '邮件服务器拒绝发送：{reason}', en: 'The mail server refused the message: {reason}', es: 'El servidor de correo rechazó el mensaje: {reason}', ja: 'メールサーバーが送信を拒否しました：{reason}' },
  EMAIL_SUBJECT_REQUIRED: { status: 400, zh: '标题不能为空', en: 'The subject is required', es: 'El asunto es obligatorio', ja: '件名は必須です' },
  EMAIL_TO_REQUIRED: { status: 400, zh: '收件邮箱不能为空', en: 'The recipient address is required', es: 'La dirección del destinatario es obligatoria', ja: '宛先のメールアドレスは必須です' },
  EMAIL_TO_FORMAT: { status: 400, zh: '收件邮箱格式错误', en: 'Invalid recipient address', es: 'Dirección de destinatario no válida', ja: '宛先のメールアドレスの形式が正しくありません' },
  EMAIL_TOS_EMPTY: { status: 400, zh: '请至少保留一位联系人', en: 'Keep at least one recipient', es: 'Mantenga al menos un destinatario', ja: '宛先を少なくとも1件残してください' },
  EMAIL_TOS_TOO_MANY: { status: 400, zh: '收件人最多{max}个', en: 'At most {max} recipients', es: 'Como máximo {max} destinatarios', ja: '宛先は最大{max}件です' },
  EMAIL_CONTENT_REQUIRED: { status: 400, zh: '邮件内容不能为空', en: 'The message body is required', es: 'El cuerpo del mensaje es obligatorio', ja: '本文は必須です' },
  EMAIL_CONTENT_TOO_LARGE: { status: 400, zh: '邮件内容（含图片）不能超过{max}MB', en: 'The message (images included) may not exceed {max} MB', es: 'El mensaje (con imágenes) no puede superar {max} MB', ja: '本文（画像を含む）は{max}MB以下にしてください' },
  EMAIL_IMAGE_INVALID: { status: 400, zh: '邮件中的图片只能是 PNG、JPG、GIF 或 WebP', en: 'Images in a message must be PNG, JPG, GIF or WebP', es: 'Las imágenes del mensaje deben ser PNG, JPG, GIF o WebP', ja: 'メール内の画像は PNG、JPG、GIF、WebP のみです' },
  EMAIL_SEND_RATE: { status: 429, zh: '邮件发送过于频繁，每分钟最多{max}封', en: 'Too many messages: at most {max} a minute', es: 'Demasiados mensajes: como máximo {max} por minuto', ja: '送信が多すぎます。1分あたり最大{max}通です' },
  EMAIL_SECRET_UNREADABLE: { status: 409, zh: '已保存的邮箱密码无法解密（密钥已更换），请重新输入密码并保存', en: 'The stored mail password cannot be decrypted (the key changed); enter the password again and save', es: 'No se puede descifrar la contraseña de correo guardada (cambió la clave); introdúzcala de nuevo y guarde', ja: '保存されたメールパスワードを復号できません（鍵が変更されました）。パスワードを再入力して保存してください' },
  EMAIL_TARGET_CHANGED: { status: 400, zh: '邮件服务器已更改（SMTP地址、端口或发件用户名），请重新输入密码', en: 'The mail server changed (SMTP host, port or user name): enter the password again', es: 'El servidor de correo cambió (servidor SMTP, puerto o usuario): introduzca de nuevo la contraseña', ja: 'メールサーバーが変更されました（SMTPサーバー、ポート、ユーザー名のいずれか）。パスワードを再入力してください' },

  // ---- integrations: Alipay tool (modules/integrations/payment) -----------------------------------------------
  ALIPAY_NOT_CONFIGURED: { status: 409, zh: '尚未配置支付宝参数，请先在 参数配置 中填写并保存', en: 'Alipay is not configured yet: fill in and save the parameters first', es: 'Alipay aún no está configurado: complete y guarde los parámetros primero', ja: 'Alipayが未設定です。先にパラメーター設定を入力して保存してください' },
  ALIPAY_APP_ID_REQUIRED: { status: 400, zh: '应用ID不能为空', en: 'The app ID is required', es: 'El ID de aplicación es obligatorio', ja: 'アプリIDは必須です' },
  ALIPAY_APP_ID_FORMAT: { status: 400, zh: '应用ID应为16位数字', en: 'The app ID must be 16 digits', es: 'El ID de aplicación debe tener 16 dígitos', ja: 'アプリIDは16桁の数字です' },
  ALIPAY_SELLER_REQUIRED: { status: 400, zh: '商户号不能为空', en: 'The merchant ID is required', es: 'El ID de comercio es obligatorio', ja: '加盟店IDは必須です' },
  ALIPAY_SELLER_FORMAT: { status: 400, zh: '商户号（PID）应为2088开头的16位数字', en: 'The merchant ID (PID) must be 16 digits starting with 2088', es: 'El ID de comercio (PID) debe tener 16 dígitos y empezar por 2088', ja: '加盟店ID（PID）は2088で始まる16桁の数字です' },
  ALIPAY_PRIVATE_KEY_REQUIRED: { status: 400, zh: '商户私钥不能为空', en: 'The merchant private key is required', es: 'La clave privada del comercio es obligatoria', ja: '加盟店秘密鍵は必須です' },
  ALIPAY_PUBLIC_KEY_REQUIRED: { status: 400, zh: '支付宝公钥不能为空', en: 'The Alipay public key is required', es: 'La clave pública de Alipay es obligatoria', ja: 'Alipay公開鍵は必須です' },
  ALIPAY_PRIVATE_KEY_INVALID: { status: 400, zh: '商户私钥格式不正确，请粘贴RSA2（2048位）应用私钥，PEM或Base64均可', en: 'Invalid merchant private key: paste the RSA2 (2048-bit) application private key, PEM or Base64', es: 'Clave privada no válida: pegue la clave privada RSA2 (2048 bits) de la aplicación, en PEM o Base64', ja: '加盟店秘密鍵の形式が正しくありません。RSA2（2048ビット）のアプリ秘密鍵をPEMまたはBase64で貼り付けてください' },
  ALIPAY_PUBLIC_KEY_INVALID: { status: 400, zh: '支付宝公钥格式不正确，请粘贴开放平台上的"支付宝公钥"（不是应用公钥），PEM或Base64均可', en: 'Invalid Alipay public key: paste the "Alipay public key" from the open platform (not the application public key), PEM or Base64', es: 'Clave pública de Alipay no válida: pegue la "clave pública de Alipay" de la plataforma abierta (no la de la aplicación), en PEM o Base64', ja: 'Alipay公開鍵の形式が正しくありません。オープンプラットフォームの「Alipay公開鍵」（アプリ公開鍵ではありません）をPEMまたはBase64で貼り付けてください' },
  ALIPAY_KEYS_SWAPPED: { status: 400, zh: '支付宝公钥与商户私钥是同一对密钥：请填写支付宝公钥，而不是应用公钥', en: 'The Alipay public key belongs to the merchant private key: enter the Alipay public key, not the application public key', es: 'La clave pública de Alipay es la pareja de la clave privada del comercio: introduzca la clave pública de Alipay, no la de la aplicación', ja: 'Alipay公開鍵が加盟店秘密鍵と同じ鍵ペアです。アプリ公開鍵ではなくAlipay公開鍵を入力してください' },
  ALIPAY_URL_REQUIRED: { status: 400, zh: '回调地址不能为空', en: 'The callback address is required', es: 'La dirección de retorno es obligatoria', ja: 'コールバックアドレスは必須です' },
  ALIPAY_URL_FORMAT: { status: 400, zh: '回调地址必须以http://或https://开头', en: 'Callback addresses must start with http:// or https://', es: 'Las direcciones de retorno deben empezar por http:// o https://', ja: 'コールバックアドレスは http:// または https:// で始めてください' },
  ALIPAY_GATEWAY_FORMAT: { status: 400, zh: '支付宝网关必须是https://开头的地址', en: 'The Alipay gateway must be an https:// address', es: 'La pasarela de Alipay debe ser una dirección https://', ja: 'Alipayゲートウェイは https:// で始まるアドレスです' },
  ALIPAY_SUBJECT_REQUIRED: { status: 400, zh: '商品名称不能为空', en: 'The product name is required', es: 'El nombre del producto es obligatorio', ja: '商品名は必須です' },
  ALIPAY_AMOUNT_REQUIRED: { status: 400, zh: '商品价格不能为空', en: 'The price is required', es: 'El precio es obligatorio', ja: '価格は必須です' },
  ALIPAY_BODY_REQUIRED: { status: 400, zh: '商品描述不能为空', en: 'The product description is required', es: 'La descripción del producto es obligatoria', ja: '商品説明は必須です' },
  ALIPAY_AMOUNT_FORMAT: { status: 400, zh: '商品价格必须是数字，最多两位小数', en: 'The price must be a number with at most two decimals', es: 'El precio debe ser un número con dos decimales como máximo', ja: '価格は小数点以下2桁までの数値で入力してください' },
  ALIPAY_AMOUNT_RANGE: { status: 400, zh: '测试金额必须大于0且不超过5000元', en: 'The test amount must be more than 0 and at most 5000 yuan', es: 'El importe de prueba debe ser mayor que 0 y como máximo 5000 yuanes', ja: 'テスト金額は0より大きく5000元以下にしてください' },
  ALIPAY_SECRET_UNREADABLE: { status: 409, zh: '已保存的支付宝密钥无法解密（密钥已更换），请重新输入并保存', en: 'The stored Alipay keys cannot be decrypted (the key changed); enter them again and save', es: 'No se pueden descifrar las claves de Alipay guardadas (cambió la clave); introdúzcalas de nuevo y guarde', ja: '保存されたAlipayの鍵を復号できません（鍵が変更されました）。再入力して保存してください' },
  ALIPAY_TARGET_CHANGED: { status: 400, zh: '应用ID已更改，请重新输入商户私钥', en: 'The app ID changed: enter the merchant private key again', es: 'El ID de aplicación cambió: introduzca de nuevo la clave privada del comercio', ja: 'アプリIDが変更されました。加盟店秘密鍵を再入力してください' },
  ONLINE_SESSION_NOT_FOUND: { status: 404, zh: '该会话已结束或不存在', en: 'The session has ended or does not exist', es: 'La sesión ha terminado o no existe', ja: 'このセッションは終了したか存在しません' },
  ALIPAY_ORDER_NOT_FOUND: { status: 404, zh: '订单不存在', en: 'The order does not exist', es: 'El pedido no existe', ja: '注文が存在しません' },
  ALIPAY_QUERY_FAILED: { status: 502, zh: '向支付宝查询订单失败：{reason}', en: 'Querying the order at Alipay failed: {reason}', es: 'La consulta del pedido en Alipay falló: {reason}', ja: 'Alipayへの注文照会に失敗しました：{reason}' },

  // ---- operations: models, model tasks, model data, dashboard statistics (modules/operations/models, tasks) --
  MODEL_NOT_FOUND: { status: 404, zh: '模型不存在', en: 'The model does not exist', es: 'El modelo no existe', ja: 'モデルが存在しません' },
  MODEL_TYPE_REQUIRED: { status: 400, zh: '请选择类型', en: 'Please choose the type', es: 'Elija el tipo', ja: '種類を選択してください' },
  MODEL_NAME_REQUIRED: { status: 400, zh: '请输入模型名称', en: 'Please enter the model name', es: 'Introduzca el nombre del modelo', ja: 'モデル名を入力してください' },
  MODEL_SITE_REQUIRED: { status: 400, zh: '请输入接口地址', en: 'Please enter the interface address', es: 'Introduzca la dirección de la interfaz', ja: 'インターフェースのアドレスを入力してください' },
  MODEL_STATU_REQUIRED: { status: 400, zh: '请选择状态', en: 'Please choose the state', es: 'Elija el estado', ja: '状態を選択してください' },
  MODEL_NAME_TAKEN: { status: 409, zh: '模型名称已存在', en: 'The model name already exists', es: 'El nombre del modelo ya existe', ja: 'モデル名は既に存在します' },
  MODEL_BUILTIN_MISSING: { status: 400, zh: '内置模型不存在', en: 'No such built-in model', es: 'El modelo integrado no existe', ja: '組み込みモデルが存在しません' },
  MODEL_BUILTIN_FIXED: { status: 400, zh: '内置模型的接口地址和类型不能修改', en: 'The address and type of a built-in model cannot change', es: 'La dirección y el tipo de un modelo integrado no se pueden cambiar', ja: '組み込みモデルのアドレスと種類は変更できません' },
  MODEL_BUILTIN_DELETE: { status: 409, zh: '内置模型不能删除，只能下架', en: 'A built-in model cannot be deleted, only taken off shelf', es: 'Un modelo integrado no se puede eliminar, solo retirar', ja: '組み込みモデルは削除できません。非公開にしかできません' },
  MODEL_SITE_FORBIDDEN: { status: 400, zh: '接口地址不在允许范围内：{reason}', en: 'The interface address is not allowed: {reason}', es: 'La dirección de la interfaz no está permitida: {reason}', ja: 'インターフェースのアドレスは許可されていません：{reason}' },
  MODEL_ON_SHELF_EDIT: { status: 409, zh: '请先下架再编辑', en: 'Take the model off shelf before editing it', es: 'Retire el modelo antes de editarlo', ja: '編集する前にモデルを非公開にしてください' },
  MODEL_ON_SHELF_DELETE: { status: 409, zh: '请先下架再删除', en: 'Take the model off shelf before deleting it', es: 'Retire el modelo antes de eliminarlo', ja: '削除する前にモデルを非公開にしてください' },
  MODEL_IN_USE: { status: 409, zh: '有任务使用该模型', en: 'Tasks use this model', es: 'Hay tareas que usan este modelo', ja: 'このモデルを使うタスクがあります' },
  MODEL_ACTIVE_TASKS: { status: 409, zh: '有启用中的任务使用该模型', en: 'Enabled tasks use this model', es: 'Hay tareas activas que usan este modelo', ja: 'このモデルを使う有効なタスクがあります' },
  MODEL_OFF_SHELF: { status: 409, zh: '模型已下架', en: 'The model is off shelf', es: 'El modelo está retirado', ja: 'モデルは非公開です' },
  MODEL_PARAM_FIRST_REQUIRED: { status: 400, zh: '请输入参数信息！', en: 'Please enter the parameter information!', es: '¡Introduzca la información del parámetro!', ja: 'パラメーター情報を入力してください！' },
  MODEL_PARAM_EMPTY: { status: 400, zh: '参数编码/参数名称/参数类型不能为空', en: 'Parameter code/name/type cannot be empty', es: 'El código, nombre y tipo del parámetro no pueden estar vacíos', ja: 'パラメーターのコード/名前/種類は空にできません' },
  MODEL_PARAM_DUPLICATE: { status: 400, zh: '参数编码/参数名称/参数类型不能相同', en: 'Parameter code/name/type cannot repeat an earlier row', es: 'El código, nombre y tipo del parámetro no pueden repetir una fila anterior', ja: 'パラメーターのコード/名前/種類が前の行と同じです' },
  MODEL_PARAM_CODE_DUPLICATE: { status: 400, zh: '参数编码重复：{code}', en: 'Repeated parameter code: {code}', es: 'Código de parámetro repetido: {code}', ja: 'パラメーターコードが重複しています：{code}' },
  MODEL_PARAM_CODE_FORMAT: { status: 400, zh: '参数编码只能由字母、数字和下划线组成且不以数字开头：{code}', en: 'A parameter code is letters, digits and underscores, not starting with a digit: {code}', es: 'Un código de parámetro tiene letras, dígitos y guiones bajos, sin empezar por dígito: {code}', ja: 'パラメーターコードは英数字とアンダースコアで、数字で始められません：{code}' },
  MODEL_PARAM_NAME_LENGTH: { status: 400, zh: '参数名称不能超过50个字符', en: 'A parameter name has at most 50 characters', es: 'Un nombre de parámetro tiene como máximo 50 caracteres', ja: 'パラメーター名は50文字以内です' },
  MODEL_PARAM_TYPE: { status: 400, zh: '参数类型只能是 Interger、String 或 Boolean：{type}', en: 'The parameter type must be Interger, String or Boolean: {type}', es: 'El tipo de parámetro debe ser Interger, String o Boolean: {type}', ja: 'パラメーターの種類は Interger、String、Boolean のいずれかです：{type}' },
  MODEL_PROPERTY_REQUIRED: { status: 400, zh: '请选择过滤条件', en: 'Please choose the filter condition', es: 'Elija la condición de filtro', ja: '絞り込み条件を選択してください' },
  MODEL_FIELD_MISSING: { status: 400, zh: '数据源缺少字段：{field}', en: 'The data source lacks the field: {field}', es: 'A la fuente de datos le falta el campo: {field}', ja: 'データソースに項目がありません：{field}' },
  MODEL_MEASURE_INVALID: { status: 400, zh: '度量应为 count、sum:字段 或 avg:字段：{measure}', en: 'The measure must be count, sum:field or avg:field: {measure}', es: 'La medida debe ser count, sum:campo o avg:campo: {measure}', ja: '集計は count、sum:項目、avg:項目 のいずれかです：{measure}' },
  MODEL_MONTH_INVALID: { status: 400, zh: '月份格式应为yyyy-MM：{month}', en: 'The month must be yyyy-MM: {month}', es: 'El mes debe tener el formato yyyy-MM: {month}', ja: '月は yyyy-MM 形式です：{month}' },
  MODEL_REMOTE_TIMEOUT: { status: 504, zh: '外部模型响应超时', en: 'The external model timed out', es: 'El modelo externo no respondió a tiempo', ja: '外部モデルの応答がタイムアウトしました' },
  MODEL_REMOTE_STATUS: { status: 502, zh: '外部模型返回错误：HTTP {status}', en: 'The external model answered an error: HTTP {status}', es: 'El modelo externo respondió un error: HTTP {status}', ja: '外部モデルがエラーを返しました：HTTP {status}' },
  MODEL_REMOTE_REDIRECT: { status: 502, zh: '外部模型不允许重定向', en: 'The external model may not redirect', es: 'El modelo externo no puede redirigir', ja: '外部モデルのリダイレクトは許可されていません' },
  MODEL_REMOTE_TOO_LARGE: { status: 502, zh: '外部模型响应超过 {max}', en: 'The external model answer exceeds {max}', es: 'La respuesta del modelo externo supera {max}', ja: '外部モデルの応答が {max} を超えています' },
  MODEL_REQUEST_TOO_LARGE: { status: 413, zh: '发送给外部模型的数据超过 {max}', en: 'The data for the external model exceeds {max}', es: 'Los datos para el modelo externo superan {max}', ja: '外部モデルに送るデータが {max} を超えています' },
  MODEL_REMOTE_BAD: { status: 502, zh: '外部模型返回的内容无法识别：{detail}', en: 'The answer of the external model is not understood: {detail}', es: 'No se entiende la respuesta del modelo externo: {detail}', ja: '外部モデルの応答を解釈できません：{detail}' },
  MODEL_REMOTE_FAILED: { status: 502, zh: '无法连接外部模型，请检查接口地址和网络', en: 'Cannot reach the external model; check the interface address and the network', es: 'No se puede conectar con el modelo externo; revise la dirección de la interfaz y la red', ja: '外部モデルに接続できません。インターフェースのアドレスとネットワークを確認してください' },
  TASK_NOT_FOUND: { status: 404, zh: '任务不存在', en: 'The task does not exist', es: 'La tarea no existe', ja: 'タスクが存在しません' },
  TASK_MODEL_REQUIRED: { status: 400, zh: '请选择模型', en: 'Please choose the model', es: 'Elija el modelo', ja: 'モデルを選択してください' },
  TASK_NAME_REQUIRED: { status: 400, zh: '请输入任务名称', en: 'Please enter the task name', es: 'Introduzca el nombre de la tarea', ja: 'タスク名を入力してください' },
  TASK_CRON_REQUIRED: { status: 400, zh: '请选择执行时间', en: 'Please choose the run time', es: 'Elija la hora de ejecución', ja: '実行時刻を選択してください' },
  TASK_DATA_REQUIRED: { status: 400, zh: '请选择数据源', en: 'Please choose the data source', es: 'Elija la fuente de datos', ja: 'データソースを選択してください' },
  TASK_NAME_TAKEN: { status: 409, zh: '任务名称已存在', en: 'The task name already exists', es: 'El nombre de la tarea ya existe', ja: 'タスク名は既に存在します' },
  TASK_NAME_IMMUTABLE: { status: 400, zh: '任务名称不能修改', en: 'The task name cannot change', es: 'El nombre de la tarea no se puede cambiar', ja: 'タスク名は変更できません' },
  TASK_RUNNING: { status: 409, zh: '任务运行中', en: 'The task is running', es: 'La tarea se está ejecutando', ja: 'タスクは実行中です' },
  TASK_FINISHED: { status: 409, zh: '任务已结束', en: 'The task has finished', es: 'La tarea ha terminado', ja: 'タスクは終了しています' },
  TASK_TOGGLE_STATE: { status: 409, zh: '只有启用或暂停的任务可以暂停或恢复', en: 'Only enabled or paused tasks can be paused or resumed', es: 'Solo se pueden pausar o reanudar tareas activas o en pausa', ja: '有効または一時停止中のタスクのみ一時停止・再開できます' },
  TASK_PROPERTY_UNKNOWN: { status: 400, zh: '过滤条件不是数据源的字段：{field}', en: 'The filter condition is not a field of the data source: {field}', es: 'La condición de filtro no es un campo de la fuente de datos: {field}', ja: '絞り込み条件はデータソースの項目ではありません：{field}' },
  TASK_DATA_NOT_FOUND: { status: 400, zh: '数据源不存在', en: 'The data source does not exist', es: 'La fuente de datos no existe', ja: 'データソースが存在しません' },
  TASK_PARAM_TYPE: { status: 400, zh: '参数“{name}”应为{type}', en: 'The parameter "{name}" must be {type}', es: 'El parámetro "{name}" debe ser {type}', ja: 'パラメーター「{name}」は{type}である必要があります' },
  TASK_OWNER_DISABLED: { status: 409, zh: '任务创建人已停用', en: 'The creator of the task is disabled', es: 'El creador de la tarea está desactivado', ja: 'タスクの作成者は無効になっています' },
  TASK_OWNER_FORBIDDEN: { status: 403, zh: '任务负责人 {owner} 无权读取任务的数据，未执行：{reason}', en: 'The task owner {owner} may not read the task’s data; the run was refused: {reason}', es: 'El responsable de la tarea {owner} no puede leer sus datos; la ejecución se rechazó: {reason}', ja: 'タスク担当者 {owner} にはタスクのデータを読む権限がないため、実行しませんでした：{reason}' },
  TASK_OWNER_NO_SOURCE_RIGHT: { status: 403, zh: '没有数据源的查看权限', en: 'no right to view data sources', es: 'sin permiso para ver las fuentes de datos', ja: 'データソースを閲覧する権限がありません' },
  MODELDATA_EMPTY: { status: 404, zh: '没有可导出的文件', en: 'There are no files to export', es: 'No hay archivos para exportar', ja: 'エクスポートするファイルがありません' },
  MODELDATA_GROUP_REQUIRED: { status: 400, zh: '请选择要导出的分组', en: 'Please choose the groups to export', es: 'Elija los grupos que exportar', ja: 'エクスポートするグループを選択してください' },
  MODELDATA_ZIP_TOO_LARGE: { status: 413, zh: '导出文件总大小超过 {max}', en: 'The files to export exceed {max} in total', es: 'Los archivos que exportar superan {max} en total', ja: 'エクスポートするファイルの合計が {max} を超えています' },
  MODELDATA_FILES_MISSING: { status: 404, zh: '以下文件已不在存储中，无法导出：{files}', en: 'These files are no longer in storage and cannot be exported: {files}', es: 'Estos archivos ya no están en el almacenamiento y no se pueden exportar: {files}', ja: '次のファイルはストレージに存在しないため、エクスポートできません：{files}' },
  MODELDATA_FILE_NOT_FOUND: { status: 404, zh: '文件不存在', en: 'The file does not exist', es: 'El archivo no existe', ja: 'ファイルが存在しません' },
  DASHBOARD_PICK_RANGE: { status: 400, zh: '请选择1到4个任务', en: 'Please choose 1 to 4 tasks', es: 'Elija de 1 a 4 tareas', ja: 'タスクを1～4件選択してください' },
  DASHBOARD_TASK_UNKNOWN: { status: 400, zh: '任务不存在：{ids}', en: 'No such tasks: {ids}', es: 'No existen las tareas: {ids}', ja: 'タスクが存在しません：{ids}' },

  // ---- tools: code generator and SQL monitor (modules/tools/generator, modules/tools/sqlMonitor) -------------
  GENERATOR_TABLE_REQUIRED: { status: 400, zh: '请选择数据表', en: 'Please choose a table', es: 'Elija una tabla', ja: 'テーブルを選択してください' },
  GENERATOR_TABLE_NOT_FOUND: { status: 404, zh: '数据表不存在: {value}', en: 'No such table: {value}', es: 'La tabla no existe: {value}', ja: 'テーブルが存在しません: {value}' },
  GENERATOR_COLUMN_NOT_FOUND: { status: 400, zh: '数据表没有该字段: {value}', en: 'The table has no such column: {value}', es: 'La tabla no tiene esa columna: {value}', ja: 'テーブルにその列はありません: {value}' },
  GENERATOR_COLUMN_DUPLICATE: { status: 400, zh: '字段重复: {value}', en: 'Column given twice: {value}', es: 'Columna repetida: {value}', ja: '列が重複しています: {value}' },
  GENERATOR_KIND: { status: 400, zh: '不支持的字段类型', en: 'Unsupported field kind', es: 'Tipo de campo no admitido', ja: 'サポートされていないフィールド種別です' },
  GENERATOR_QUERY: { status: 400, zh: '查询方式只能是 1（模糊）、2（精确）或空', en: 'The query type must be 1 (fuzzy), 2 (exact) or empty', es: 'El tipo de consulta debe ser 1 (aproximada), 2 (exacta) o vacío', ja: '検索方式は 1（あいまい）、2（完全一致）または空のみです' },
  GENERATOR_DICT_NAME: { status: 400, zh: '字典名称只能由字母、数字和下划线组成', en: 'A dictionary name may contain only letters, digits and underscores', es: 'El nombre del diccionario solo puede contener letras, dígitos y guiones bajos', ja: '辞書名は英字、数字、アンダースコアのみ使用できます' },
  GENERATOR_AUTHOR_REQUIRED: { status: 400, zh: '作者不能为空', en: 'The author is required', es: 'El autor es obligatorio', ja: '作成者は必須です' },
  GENERATOR_AUTHOR_TEXT: { status: 400, zh: '作者只能是一行文字，不能包含换行、控制字符或 */', en: 'The author must be one line of text without line breaks, control characters or */', es: 'El autor debe ser una sola línea de texto, sin saltos de línea, caracteres de control ni */', ja: '作成者は1行のテキストで、改行・制御文字・*/ を含めることはできません' },
  GENERATOR_LABEL_TEXT: { status: 400, zh: '字段标签只能是一行文字，不能包含换行、控制字符或 */', en: 'A field label must be one line of text without line breaks, control characters or */', es: 'La etiqueta del campo debe ser una sola línea de texto, sin saltos de línea, caracteres de control ni */', ja: '項目ラベルは1行のテキストで、改行・制御文字・*/ を含めることはできません' },
  GENERATOR_COLUMN_IDENTIFIER: { status: 400, zh: '字段名“{value}”不能生成合法的标识符（字母、数字、下划线，且不以数字开头），请先重命名该列', en: 'The column name "{value}" does not give a valid identifier (letters, digits, underscores, not starting with a digit): rename the column first', es: 'El nombre de columna "{value}" no da un identificador válido (letras, dígitos, guiones bajos, sin empezar por un dígito): cambie primero el nombre de la columna', ja: '列名「{value}」から有効な識別子を作れません（英字・数字・アンダースコア、数字で始まらない）。先に列名を変更してください' },
  GENERATOR_PACK_REQUIRED: { status: 400, zh: '包路径不能为空', en: 'The package path is required', es: 'La ruta del paquete es obligatoria', ja: 'パッケージパスは必須です' },
  GENERATOR_PATH_REQUIRED: { status: 400, zh: '前端代码生成路径不能为空', en: 'The front-end code path is required', es: 'La ruta del código del front-end es obligatoria', ja: 'フロントエンドコードの生成パスは必須です' },
  GENERATOR_API_PATH_REQUIRED: { status: 400, zh: '前端Api文件生成路径不能为空', en: 'The front-end API file path is required', es: 'La ruta de los archivos API del front-end es obligatoria', ja: 'フロントエンドAPIファイルの生成パスは必須です' },
  GENERATOR_FOLDER: { status: 400, zh: '路径只能包含字母、数字、-、_、. 和 /，且不能含 ..', en: 'A path may contain only letters, digits, -, _, . and /, and no ..', es: 'Una ruta solo puede contener letras, dígitos, -, _, . y /, sin ..', ja: 'パスに使えるのは英数字、-、_、.、/ のみで、.. は使えません' },
  GENERATOR_PREFIX: { status: 400, zh: '表前缀只能由字母、数字和下划线组成', en: 'The table prefix may contain only letters, digits and underscores', es: 'El prefijo de tabla solo puede contener letras, dígitos y guiones bajos', ja: 'テーブル接頭辞は英字、数字、アンダースコアのみ使用できます' },
  GENERATOR_MENU_PARENT: { status: 400, zh: '上级菜单路径只能由字母、数字、-和_组成', en: 'The parent menu path may contain only letters, digits, - and _', es: 'La ruta del menú superior solo puede contener letras, dígitos, - y _', ja: '親メニューのパスは英数字、-、_ のみ使用できます' },
  GENERATOR_MENU_ICON: { status: 400, zh: '菜单图标只能由字母组成', en: 'The menu icon may contain only letters', es: 'El icono del menú solo puede contener letras', ja: 'メニューアイコンは英字のみ使用できます' },
  GENERATOR_COLUMNS_BODY: { status: 400, zh: '请提交字段配置数组', en: 'Please send an array of column settings', es: 'Envíe una lista de configuraciones de columnas', ja: '列設定の配列を送信してください' },
  SQL_MONITOR_WINDOW: { status: 400, zh: '统计时段只能是 all、5 或 60（分钟）', en: 'The window must be all, 5 or 60 (minutes)', es: 'El periodo debe ser all, 5 o 60 (minutos)', ja: '集計期間は all、5、60（分）のいずれかです' },
  SQL_MONITOR_UNAVAILABLE: { status: 404, zh: '当前数据库连接未启用SQL监控', en: 'SQL monitoring is not enabled for this database connection', es: 'La supervisión SQL no está activada para esta conexión', ja: 'このデータベース接続ではSQL監視が有効ではありません' },
  // ---- outbound connections to user-named hosts (core/net/outboundGuard: data sources, SMTP, S3, models) ---
  OUTBOUND_HOST_INVALID: { status: 400, zh: '地址格式不正确：{host}', en: 'The address is not valid: {host}', es: 'La dirección no es válida: {host}', ja: 'アドレスの形式が正しくありません：{host}' },
  OUTBOUND_HOST_UNRESOLVED: { status: 400, zh: '无法解析地址：{host}', en: 'The address {host} cannot be resolved', es: 'No se puede resolver la dirección {host}', ja: 'アドレス {host} を解決できません' },
  OUTBOUND_ADDRESS_FORBIDDEN: { status: 400, zh: '不允许连接 {host}（{address}）：链路本地、云元数据、组播、广播或保留地址', en: 'Connecting to {host} ({address}) is not allowed: a link-local, cloud-metadata, multicast, broadcast or reserved address', es: 'No se permite conectar con {host} ({address}): dirección de enlace local, de metadatos de la nube, multidifusión, difusión o reservada', ja: '{host}（{address}）への接続は許可されていません：リンクローカル、クラウドメタデータ、マルチキャスト、ブロードキャスト、または予約済みのアドレスです' },
  OUTBOUND_LOOPBACK_FORBIDDEN: { status: 400, zh: '不允许连接本机地址 {host}（{address}）；如确需连接，请由管理员将其加入 {setting}', en: 'Connecting to this machine ({host}, {address}) is not allowed; if it is needed, an administrator adds it to {setting}', es: 'No se permite conectar con esta máquina ({host}, {address}); si es necesario, un administrador la añade a {setting}', ja: 'このサーバー自身（{host}、{address}）への接続は許可されていません。必要な場合は管理者が {setting} に追加してください' },
  OUTBOUND_PRIVATE_FORBIDDEN: { status: 400, zh: '{host} 解析到内网地址 {address}；如确需连接，请由管理员将其加入 {setting}', en: '{host} resolves to the internal address {address}; if it is needed, an administrator adds it to {setting}', es: '{host} se resuelve a la dirección interna {address}; si es necesario, un administrador la añade a {setting}', ja: '{host} は内部アドレス {address} に解決されます。必要な場合は管理者が {setting} に追加してください' },
  // ---- operations: data sources and custom data sources (modules/operations/dataSources) -------------------
  DATASOURCE_NOT_FOUND: { status: 404, zh: '数据源不存在或已删除', en: 'The data source does not exist or was deleted', es: 'La fuente de datos no existe o se eliminó', ja: 'データソースが存在しないか、削除されました' },
  DATASOURCE_TYPE_REQUIRED: { status: 400, zh: '数据源类型必填', en: 'The data source type is required', es: 'El tipo de fuente de datos es obligatorio', ja: 'データソースの種類は必須です' },
  DATASOURCE_NAME_REQUIRED: { status: 400, zh: '数据源名称必填', en: 'The data source name is required', es: 'El nombre de la fuente de datos es obligatorio', ja: 'データソース名は必須です' },
  DATASOURCE_ENCODING_REQUIRED: { status: 400, zh: '字符编码必填', en: 'The character encoding is required', es: 'La codificación de caracteres es obligatoria', ja: '文字コードは必須です' },
  DATASOURCE_SQL_FIELD_REQUIRED: { status: 400, zh: '请填写{label}', en: 'Please fill in: {label}', es: 'Rellene: {label}', ja: '{label}を入力してください' },
  DATASOURCE_CODE_TAKEN: { status: 409, zh: '数据源编码已存在', en: 'The data source code is already used', es: 'El código de fuente de datos ya se usa', ja: 'データソースコードは既に使われています' },
  DATASOURCE_IN_USE: { status: 409, zh: '有任务使用该数据源', en: 'A task uses this data source', es: 'Una tarea usa esta fuente de datos', ja: 'このデータソースを使うタスクがあります' },
  DATASOURCE_UNREACHABLE: { status: 400, zh: '无法连接数据库：请检查数据库类型、地址和端口，以及网络是否可达', en: 'Cannot reach the database: check the database type, host and port, and that the network allows the connection', es: 'No se puede conectar con la base de datos: compruebe el tipo, el servidor y el puerto, y que la red permita la conexión', ja: 'データベースに接続できません。種類・アドレス・ポートとネットワークを確認してください' },
  DATASOURCE_CONNECT_FAILED: { status: 400, zh: '连接失败：{detail}', en: 'Connection failed: {detail}', es: 'La conexión falló: {detail}', ja: '接続に失敗しました：{detail}' },
  DATASOURCE_QUERY_REFUSED: { status: 400, zh: 'SQL 不允许：{detail}', en: 'SQL not allowed (data sources only read one SELECT): {detail}', es: 'SQL no permitido (las fuentes de datos solo leen un SELECT): {detail}', ja: '許可されないSQLです（データソースはSELECT 1文のみ）：{detail}' },
  DATASOURCE_READ_FAILED: { status: 400, zh: '读取数据源失败：{detail}', en: 'Reading the data source failed: {detail}', es: 'No se pudo leer la fuente de datos: {detail}', ja: 'データソースの読み込みに失敗しました：{detail}' },
  DATASOURCE_ROW_CAP: { status: 400, zh: '数据源超过 {max} 行的上限，请缩小查询范围', en: 'The data source exceeds the limit of {max} rows; narrow the query', es: 'La fuente de datos supera el límite de {max} filas; acote la consulta', ja: 'データソースが上限の{max}行を超えています。範囲を絞ってください' },
  DATASOURCE_PASSWORD_UNREADABLE: { status: 400, zh: '数据库密码无法解密（密钥已更换），请重新填写密码', en: 'The stored database password cannot be decrypted (the key changed); enter it again', es: 'No se puede descifrar la contraseña guardada (cambió la clave); introdúzcala de nuevo', ja: '保存されたパスワードを復号できません（鍵が変更されました）。再入力してください' },
  DATASOURCE_TARGET_CHANGED: { status: 400, zh: '连接目标已更改（数据库类型、地址、端口、账号或数据库名称），请重新输入密码', en: 'The connection target changed (database type, host, port, user or database name): enter the password again', es: 'El destino de la conexión cambió (tipo de base de datos, servidor, puerto, usuario o nombre de la base de datos): introduzca de nuevo la contraseña', ja: '接続先が変更されました（データベースの種類、アドレス、ポート、アカウント、データベース名のいずれか）。パスワードを再入力してください' },
  SECRET_TARGET_FIELD_CHANGED: { status: 400, zh: '此项已更改，需要重新输入密码或密钥', en: 'Changed: the password or key must be entered again', es: 'Cambiado: hay que introducir de nuevo la contraseña o la clave', ja: '変更されました。パスワードまたは鍵を再入力してください' },
  DATASOURCE_FILE_ENCODING: { status: 400, zh: '文件编码与所选字符编码（{encoding}）不符：{detail}', en: 'The file does not match the chosen encoding ({encoding}): {detail}', es: 'El archivo no coincide con la codificación elegida ({encoding}): {detail}', ja: 'ファイルが選択した文字コード（{encoding}）と一致しません：{detail}' },
  DATASOURCE_NO_HEADER: { status: 400, zh: '文件第一行应为表头（列名）：{detail}', en: 'The first row of the file must be the header (column names): {detail}', es: 'La primera fila del archivo debe ser el encabezado (nombres de columna): {detail}', ja: 'ファイルの1行目は見出し（列名）である必要があります：{detail}' },
  DATASOURCE_FILE_ROW: { status: 400, zh: '文件第{row}行：{detail}', en: 'Row {row} of the file: {detail}', es: 'Fila {row} del archivo: {detail}', ja: 'ファイルの{row}行目：{detail}' },
  DATASOURCE_FILE_TYPE: { status: 400, zh: '上传文件只能是 csv/xls/xlsx 格式!', en: 'Only csv/xls/xlsx files can be uploaded!', es: '¡Solo se pueden subir archivos csv/xls/xlsx!', ja: 'アップロードできるのは csv/xls/xlsx 形式のみです！' },
  DATASOURCE_UPLOAD_UNKNOWN: { status: 400, zh: '请先上传文件（文件不存在或不是本人上传的）', en: 'Please upload the file first (it does not exist or was not uploaded by you)', es: 'Suba primero el archivo (no existe o no lo subió usted)', ja: '先にファイルをアップロードしてください（存在しないか、本人のアップロードではありません）' },
  DATASOURCE_TYPE_FILE: { status: 400, zh: '数据源类型为 {type}，但上传的是 {ext} 文件', en: 'The data source type is {type} but the uploaded file is {ext}', es: 'El tipo de fuente es {type} pero el archivo subido es {ext}', ja: 'データソースの種類は{type}ですが、アップロードされたのは{ext}ファイルです' },
  DATASOURCE_STORAGE_UNAVAILABLE: { status: 503, zh: '文件存储不可用，无法保存或读取上传的文件', en: 'File storage is unavailable; uploaded files cannot be stored or read', es: 'El almacenamiento de archivos no está disponible', ja: 'ファイルストレージが利用できません' },
  DATASOURCE_DATASET_FORBIDDEN: { status: 403, zh: '没有查看“{dataset}”的权限，不能读取该数据源', en: 'No right to view "{dataset}": the data source cannot be read', es: 'Sin permiso para ver "{dataset}": no se puede leer la fuente', ja: '「{dataset}」を閲覧する権限がないため、データソースを読み込めません' },
  DATASOURCE_OWNER_DISABLED: { status: 400, zh: '数据源读取人账号已停用', en: 'The account reading the data source is disabled', es: 'La cuenta que lee la fuente de datos está desactivada', ja: 'データソースを読み込むアカウントは無効です' },
  CUSTOM_DATASOURCE_NOT_FOUND: { status: 404, zh: '自定义数据源不存在', en: 'The custom data source does not exist', es: 'La fuente de datos personalizada no existe', ja: 'カスタムデータソースが存在しません' },
  CUSTOM_DATASOURCE_REQUIRED: { status: 400, zh: '请选择自定义数据源', en: 'Please choose a custom data source', es: 'Elija una fuente de datos personalizada', ja: 'カスタムデータソースを選択してください' },
  CUSTOM_DATASOURCE_NAME_TAKEN: { status: 409, zh: '自定义数据源名称已存在', en: 'A custom data source of this name exists', es: 'Ya existe una fuente personalizada con ese nombre', ja: '同名のカスタムデータソースが既にあります' },
  CUSTOM_DATASOURCE_DATASET: { status: 400, zh: '未知的数据集：{value}', en: 'Unknown dataset: {value}', es: 'Conjunto de datos desconocido: {value}', ja: '不明なデータセットです：{value}' },
  CUSTOM_DATASOURCE_FIELDS: { status: 400, zh: '数据集“{dataset}”没有这些字段：{fields}', en: 'The dataset "{dataset}" has no such fields: {fields}', es: 'El conjunto "{dataset}" no tiene estos campos: {fields}', ja: 'データセット「{dataset}」にこれらの項目はありません：{fields}' },
  CUSTOM_DATASOURCE_FIELDS_REQUIRED: { status: 400, zh: '请至少选择一个字段', en: 'Please choose at least one field', es: 'Elija al menos un campo', ja: '項目を1つ以上選択してください' },
  CUSTOM_DATASOURCE_IN_USE: { status: 409, zh: '有数据源使用该自定义数据源', en: 'A data source uses this custom data source', es: 'Una fuente de datos usa esta fuente personalizada', ja: 'このカスタムデータソースを使うデータソースがあります' },
  // ---- platform errors (issue 21 item 2) -------------------------------------------------------------------
  // Excel readers (core/excel): the limits an upload hits, each its own code; {part} is the reader's name of the part
  FILE_LIMIT_CELL_CHARS: { status: 400, zh: '文件过大或已损坏：第{row}行有超过 {max} 个字符的单元格（Excel 的上限）', en: 'The file is too large or damaged: row {row} has a cell of more than {max} characters (the Excel limit)', es: 'El archivo es demasiado grande o está dañado: la fila {row} tiene una celda de más de {max} caracteres (el límite de Excel)', ja: 'ファイルが大きすぎるか、破損しています：{row}行目に{max}文字を超えるセルがあります（Excelの上限）' },
  FILE_LIMIT_ROW_BYTES: { status: 400, zh: '文件过大或已损坏：工作表第{row}行超过 {max} MB 的上限', en: 'The file is too large or damaged: row {row} of the sheet exceeds the limit of {max} MB', es: 'El archivo es demasiado grande o está dañado: la fila {row} de la hoja supera el límite de {max} MB', ja: 'ファイルが大きすぎるか、破損しています：ワークシートの{row}行目が上限の{max} MBを超えています' },
  FILE_LIMIT_TOKEN: { status: 400, zh: '文件过大或已损坏：{part}中有超过 {max} MB 的单个单元格或标记', en: 'The file is too large or damaged: {part} has a single cell or tag of more than {max} MB', es: 'El archivo es demasiado grande o está dañado: {part} tiene una celda o etiqueta de más de {max} MB', ja: 'ファイルが大きすぎるか、破損しています：{part}に{max} MBを超える単一のセルまたはタグがあります' },
  FILE_LIMIT_SHARED_STRING: { status: 400, zh: '文件过大或已损坏：共享字符串表中有超过 {max} 个字符的文本（Excel 的上限）', en: 'The file is too large or damaged: the shared strings hold a text of more than {max} characters (the Excel limit)', es: 'El archivo es demasiado grande o está dañado: las cadenas compartidas tienen un texto de más de {max} caracteres (el límite de Excel)', ja: 'ファイルが大きすぎるか、破損しています：共有文字列に{max}文字を超えるテキストがあります（Excelの上限）' },
  FILE_LIMIT_COLUMNS: { status: 400, zh: '文件过大或已损坏：第{row}行超过 {max} 列（Excel 的上限）', en: 'The file is too large or damaged: row {row} has more than {max} columns (the Excel limit)', es: 'El archivo es demasiado grande o está dañado: la fila {row} tiene más de {max} columnas (el límite de Excel)', ja: 'ファイルが大きすぎるか、破損しています：{row}行目が{max}列を超えています（Excelの上限）' },
  FILE_LIMIT_SHEET_ROW: { status: 400, zh: '文件过大或已损坏：工作表中有超过 {max} MB 的行', en: 'The file is too large or damaged: the sheet has a row of more than {max} MB', es: 'El archivo es demasiado grande o está dañado: la hoja tiene una fila de más de {max} MB', ja: 'ファイルが大きすぎるか、破損しています：ワークシートに{max} MBを超える行があります' },
  FILE_LIMIT_XLS_TIME: { status: 400, zh: '文件过大或已损坏：读取时间超过 {seconds} 秒的上限', en: 'The file is too large or damaged: reading it took longer than the limit of {seconds} seconds', es: 'El archivo es demasiado grande o está dañado: su lectura superó el límite de {seconds} segundos', ja: 'ファイルが大きすぎるか、破損しています：読み込みが上限の{seconds}秒を超えました' },
  FILE_LIMIT_XLS_MEMORY: { status: 400, zh: '文件过大或已损坏：读取时超过 {max} MB 内存的上限', en: 'The file is too large or damaged: reading it exceeded the memory limit of {max} MB', es: 'El archivo es demasiado grande o está dañado: su lectura superó el límite de memoria de {max} MB', ja: 'ファイルが大きすぎるか、破損しています：読み込み時にメモリ上限の{max} MBを超えました' },
  FILE_LIMIT_DEPTH: { status: 400, zh: '文件过大或已损坏：工作表的元素嵌套超过 {max} 层', en: 'The file is too large or damaged: the sheet nests elements more than {max} levels deep', es: 'El archivo es demasiado grande o está dañado: la hoja anida elementos a más de {max} niveles', ja: 'ファイルが大きすぎるか、破損しています：ワークシートの要素の入れ子が{max}階層を超えています' },
  FILE_LIMIT_ZIP_ENTRIES: { status: 400, zh: '文件过大或已损坏：压缩包中的文件超过 {max} 个的上限', en: 'The file is too large or damaged: the archive holds more than the limit of {max} files', es: 'El archivo es demasiado grande o está dañado: el paquete contiene más del límite de {max} archivos', ja: 'ファイルが大きすぎるか、破損しています：圧縮ファイル内のファイル数が上限の{max}個を超えています' },
  FILE_LIMIT_ZIP_TOTAL: { status: 400, zh: '文件过大或已损坏：解压后总大小超过 {max} 的上限', en: 'The file is too large or damaged: uncompressed, it exceeds the limit of {max} in total', es: 'El archivo es demasiado grande o está dañado: descomprimido supera el límite total de {max}', ja: 'ファイルが大きすぎるか、破損しています：展開後の合計サイズが上限の{max}を超えています' },
  FILE_LIMIT_ZIP_ENTRY: { status: 400, zh: '文件过大或已损坏：解压后超过 {max} 的上限（{name}）', en: 'The file is too large or damaged: uncompressed, it exceeds the limit of {max} ({name})', es: 'El archivo es demasiado grande o está dañado: descomprimido supera el límite de {max} ({name})', ja: 'ファイルが大きすぎるか、破損しています：展開後に上限の{max}を超えています（{name}）' },
  FILE_LIMIT_ZIP_RATIO: { status: 400, zh: '文件过大或已损坏：压缩比超过 {ratio}:1 的上限（{name}）', en: 'The file is too large or damaged: the compression ratio exceeds the limit of {ratio}:1 ({name})', es: 'El archivo es demasiado grande o está dañado: la tasa de compresión supera el límite de {ratio}:1 ({name})', ja: 'ファイルが大きすぎるか、破損しています：圧縮率が上限の{ratio}:1を超えています（{name}）' },
  FILE_LIMIT_PART: { status: 400, zh: '文件过大或已损坏：{part}解压后超过 {max} 的上限', en: 'The file is too large or damaged: {part} exceeds the limit of {max} uncompressed', es: 'El archivo es demasiado grande o está dañado: {part} supera el límite de {max} descomprimido', ja: 'ファイルが大きすぎるか、破損しています：{part}が展開後に上限の{max}を超えています' },
  FILE_LIMIT_OVER_DECLARED: { status: 400, zh: '文件过大或已损坏：解压后的内容多于文件目录中声明的 {size} 字节（{name}）', en: 'The file is too large or damaged: it inflates to more than the {size} bytes its directory declares ({name})', es: 'El archivo es demasiado grande o está dañado: descomprimido ocupa más de los {size} bytes que declara su directorio ({name})', ja: 'ファイルが大きすぎるか、破損しています：展開後の内容がディレクトリに宣言された{size}バイトを超えています（{name}）' },
  FILE_SHEET_MISSING: { status: 400, zh: '工作表缺失', en: 'The worksheet is missing', es: 'Falta la hoja de cálculo', ja: 'ワークシートがありません' },
  // where the header is (core/excel/findHeader): {labels} and {matched} are column names of the file, kept as they are
  IMPORT_HEADER_AT_ROW: { status: 400, zh: '缺少必填列：{labels}（表头按第{row}行读取，该行认出的列：{matched}）', en: 'Required columns are missing: {labels} (the header was read from row {row}; columns recognised there: {matched})', es: 'Faltan columnas obligatorias: {labels} (el encabezado se leyó en la fila {row}; columnas reconocidas en ella: {matched})', ja: '必須列がありません：{labels}（見出しは{row}行目として読み取りました。認識された列：{matched}）' },
  IMPORT_HEADER_AT_ROW_MORE: { status: 400, zh: '缺少必填列：{labels}（表头按第{row}行读取，该行认出的列：{matched}等）', en: 'Required columns are missing: {labels} (the header was read from row {row}; columns recognised there: {matched} and more)', es: 'Faltan columnas obligatorias: {labels} (el encabezado se leyó en la fila {row}; columnas reconocidas en ella: {matched} y otras)', ja: '必須列がありません：{labels}（見出しは{row}行目として読み取りました。認識された列：{matched}など）' },
  IMPORT_HEADER_NOT_FOUND: { status: 400, zh: '未找到表头：在前{max}行中没有包含列名的行，读取的第{row}行（{preview}）不是表头，其中没有可识别的列名；请使用导入模板的列名，例如：{labels}', en: 'No header found: none of the first {max} rows names a column; row {row} ({preview}) is not a header, it has no known column name. Use the column names of the import template, e.g. {labels}', es: 'No se encontró el encabezado: ninguna de las primeras {max} filas nombra una columna; la fila {row} ({preview}) no es un encabezado, no tiene ningún nombre de columna conocido. Use los nombres de columna de la plantilla de importación, p. ej. {labels}', ja: '見出しが見つかりません：先頭{max}行に列名を含む行がありません。{row}行目（{preview}）は見出しではなく、認識できる列名がありません。インポートテンプレートの列名を使ってください。例：{labels}' },
  // dispatch (modules/dispatch)
  COMPANY_HAS_STAFF: { status: 409, zh: '该单位下还有员工，不能删除', en: 'The company still has staff and cannot be deleted', es: 'La empresa aún tiene empleados y no se puede eliminar', ja: 'この会社にはまだ従業員がいるため削除できません' },
  CONTRACT_REMINDER_LIST_REMINDED_ONLY: { status: 400, zh: '提醒列表只包含已提醒的员工', en: 'The reminder list only holds staff who have been reminded', es: 'La lista de avisos solo incluye empleados ya avisados', ja: '通知リストには通知済みの従業員のみが含まれます' },
  DISPATCH_COMPANY_UNKNOWN: { status: 400, zh: '派遣单位不存在，请从派遣单位字典中选择', en: 'No such dispatch company; choose one from the dispatch company dictionary', es: 'La empresa de cesión no existe; elija una del diccionario de empresas de cesión', ja: '派遣元が存在しません。派遣元の辞書から選択してください' },
  // field messages of the data-source form and the Alipay settings (modules/operations/dataSources, integrations/payment)
  DATASOURCE_ENCODING_INVALID: { status: 400, zh: '字符编码只能是 {encodings}', en: 'The character encoding must be one of {encodings}', es: 'La codificación de caracteres debe ser una de {encodings}', ja: '文字コードは {encodings} のいずれかにしてください' },
  DATASOURCE_DB_KIND_INVALID: { status: 400, zh: '数据库类型只能是 mysql（含 MariaDB）或 postgres', en: 'The database type must be mysql (MariaDB included) or postgres', es: 'El tipo de base de datos debe ser mysql (incluido MariaDB) o postgres', ja: 'データベースの種類は mysql（MariaDB を含む）または postgres にしてください' },
  DATASOURCE_PORT_INVALID: { status: 400, zh: '端口必须是1到65535之间的整数', en: 'The port must be a whole number from 1 to 65535', es: 'El puerto debe ser un número entero entre 1 y 65535', ja: 'ポートは1から65535までの整数にしてください' },
  ALIPAY_KEYS_SWAPPED_FIELD: { status: 400, zh: '支付宝公钥与商户私钥是同一对密钥', en: 'The Alipay public key and the merchant private key are the same key pair', es: 'La clave pública de Alipay y la clave privada del comercio son el mismo par de claves', ja: 'Alipay公開鍵と加盟店秘密鍵が同じ鍵ペアです' },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * Parameters of a message: plain values, rendered as they are (or translated when they are labels), or a
 * nested message (a sub-check's reason inside a row or filter message), rendered in the same language.
 */
export type ErrorParams = Record<string, string | number | CodedMessage>;

/** A message as data: a catalogue code and its parameters (field errors, validation issues). */
export interface CodedMessage {
  code: ErrorCode;
  params?: ErrorParams;
}

/** Parameter names whose values are Chinese labels that a label translator may translate. */
const LABEL_PARAMS = new Set(['label', 'resource', 'parent', 'text']);

/** Translates a Chinese label (a field or resource label) into a language; returns null when it cannot. */
export type LabelTranslator = (zhLabel: string, language: Language) => string | null;

/** True when `code` is a catalogue code. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code);
}

/** The message of `code` in `language` with its parameters filled in (labels translated when possible). */
export function renderError(code: ErrorCode, params: ErrorParams = {}, language: Language = 'zh', labels?: LabelTranslator): string {
  const template = ERROR_CATALOGUE[code][language];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const param = params[name];
    if (typeof param === 'object') return renderError(param.code, param.params ?? {}, language, labels);
    const value = String(param);
    if (language !== 'zh' && labels && LABEL_PARAMS.has(name)) return labels(value, language) ?? value;
    return value;
  });
}

interface CompiledTemplate {
  code: ErrorCode;
  names: string[];
  pattern: RegExp;
  /** Literal characters of the template: more literal text means a more specific template. */
  literal: number;
}

let compiled: { exact: Map<string, ErrorCode>; templates: CompiledTemplate[] } | undefined;

function compile() {
  if (compiled) return compiled;
  const exact = new Map<string, ErrorCode>();
  const templates: CompiledTemplate[] = [];
  for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
    const zh: string = ERROR_CATALOGUE[code].zh;
    const names: string[] = [];
    const parts = zh.split(/\{(\w+)\}/);
    // a template that is nothing but a carried text ('{text}') says nothing about a message: never matched
    if (parts.every((part, i) => i % 2 === 1 || part === '')) continue;
    if (parts.length === 1) {
      // the first code of a text wins (VALIDATION and BAD_REQUEST share 参数错误)
      if (!exact.has(zh)) exact.set(zh, code);
      continue;
    }
    let source = '^';
    let literal = 0;
    parts.forEach((part, i) => {
      if (i % 2 === 1) {
        names.push(part);
        source += '([\\s\\S]*?)';
      } else {
        literal += part.length;
        source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }
    });
    templates.push({ code, names, pattern: new RegExp(`${source}$`), literal });
  }
  templates.sort((a, b) => b.literal - a.literal);
  compiled = { exact, templates };
  return compiled;
}

/**
 * The catalogue entry a Chinese message was rendered from, with its parameters read back; null when the
 * message is not in the catalogue. This is how messages of call sites that still pass Chinese text (and the
 * Chinese messages of the shared validation) get their code and their translations.
 */
export function codeOfMessage(zhMessage: string): { code: ErrorCode; params: ErrorParams } | null {
  const { exact, templates } = compile();
  const hit = exact.get(zhMessage);
  if (hit) return { code: hit, params: {} };
  for (const t of templates) {
    const m = t.pattern.exec(zhMessage);
    if (!m) continue;
    const params: ErrorParams = {};
    t.names.forEach((name, i) => {
      params[name] = m[i + 1];
    });
    return { code: t.code, params };
  }
  return null;
}
