import { defineResource, type FieldDef } from '../resource/types.ts';

/**
 * Payslips (工资条): imported from a spreadsheet or generated from a confirmed salary month. Labels follow
 * shared/reference/glossary.md (items marked (?) there are the most likely reading; correct them here only).
 * Ordinary employees (job 普通员工) only ever see rows whose idCard equals their username (server-enforced).
 */

/** Income items (pinyin API name, Chinese label), in the order of the spec. */
export const PAYSLIP_INCOME_ITEMS: readonly [string, string][] = [
  ['banzhuren', '班主任津贴'],
  ['bishisheng', '毕实生'],
  ['bufaxuesheng', '补发学生'],
  ['chuangshou', '创收'],
  ['fudaoyuan', '辅导员津贴'],
  ['gangweixing', '岗位性津贴'],
  ['hengxiang', '横向课题'],
  ['jichu', '基础工资'],
  ['jiaoxue', '教学津贴'],
  ['juanzeng', '捐赠'],
  ['kecheng', '课程费'],
  ['keshi', '课时费'],
  ['kunnan', '困难补助'],
  ['laowu', '劳务费'],
  ['lunwen', '论文奖励'],
  ['shenghuo', '生活补贴'],
  ['shuoshi', '硕士'],
  ['teqin', '特勤津贴'],
  ['teshugangwei', '特殊岗位津贴'],
  ['teshujixiao', '特殊绩效'],
  ['shichu', '实出'],
  ['tuchu', '突出贡献'],
  ['xifa', '系发'],
  ['xiaofa', '校发'],
  ['xiaoling', '校领'],
  ['xieyi', '协议工资'],
  ['xueshi', '学时'],
  ['yidi', '异地补贴'],
  ['zhaosheng', '招生'],
  ['zhuanjia', '专家津贴'],
  ['zhuanxiang1', '专项1'],
  ['zhuanxiang2', '专项2'],
  ['zongxiang', '纵向课题'],
  ['zuopin', '作品奖励'],
  ['zizhu', '资助'],
  ['xiaonei', '校内'],
  ['youxiujiang', '优秀奖'],
  ['bumenkaohe', '部门考核'],
  ['nianzhong1', '年终1'],
  ['nianzhong2', '年终2'],
  // Not in the spec's list: the salary flow's 加班费 and pre-tax 扣款, so that a generated payslip adds up on
  // its face (finding P7: 基础工资 8,000.00 above 应发合计 8,250.00 with the difference only in 备注).
  ['jiaban', '加班费'],
  ['koukuan', '扣款（税前）'],
  // issue 20 item 7: 补发 / 补扣 are wages of the month (in 本期应发); 经济补偿金 is taxed on its own (its tax: 补偿金个税)
  ['bufa', '补发'],
  ['bukou', '补扣'],
  ['jingjibuchang', '经济补偿金'],
  ['benqi', '本期应发'],
];

/** Income-section items that reduce 本期应发 (stored positive, shown and added up with a minus sign). */
export const PAYSLIP_PRE_TAX_DEDUCTIONS: ReadonlySet<string> = new Set(['koukuan', 'bukou']);

/** Deduction and result items. */
export const PAYSLIP_DEDUCTION_ITEMS: readonly [string, string][] = [
  ['yanglao', '养老(8%)'],
  ['yiliao', '医疗(2%+3)'],
  ['shiye', '失业(0.5%)'],
  ['gongjijin', '公积金(12%)'],
  ['shebaogeren', '社保个人合计'],
  ['shebaogongjijin', '社保公积金合计'],
  ['yingshui', '应税所得'],
  ['yingna', '应纳税额'],
  ['nianzhong3', '年终3'],
  ['buchangshui', '经济补偿金个税'],
  ['gonghui', '工会费'],
  ['shuihou', '税后'],
  // What the month's pay could not cover (issue 20 item 5, PB4): 上月应扣未扣 deducted first, then 应扣未扣 (carried to
  // the next month) or 单位垫付 (advanced by the company); 实发 is never below zero.
  ['shangyueweikou', '上月应扣未扣'],
  ['yingkouweikou', '应扣未扣'],
  ['danweidianfu', '单位垫付'],
  ['shifa', '实发'],
  ['nianzhong4', '年终4'],
];

/** Every money item of a payslip, income first. */
export const PAYSLIP_MONEY_ITEMS: readonly string[] = [...PAYSLIP_INCOME_ITEMS, ...PAYSLIP_DEDUCTION_ITEMS].map(([n]) => n);

// 应税所得 is this month's share of the cumulative taxable income and is negative below the basic deduction.
const SIGNED_ITEMS = new Set(['yingshui']);
const SHOWN_ITEMS = new Set(['jichu', 'benqi', 'shebaogongjijin', 'yingna', 'shifa']);

const money = ([name, label]: readonly [string, string]): FieldDef => ({
  name,
  kind: 'money',
  label,
  list: SHOWN_ITEMS.has(name),
  ...(SIGNED_ITEMS.has(name) ? { min: -10_000_000 } : {}),
});

/** How a payslip came to be: generated rows are replaced by the next generation, imported ones never are. */
export const PAYSLIP_SOURCE = { generated: '生成', imported: '导入' } as const;

export const payslipResource = defineResource({
  name: 'acPayslip',
  table: 'ac_payslip',
  permission: 'ACPAYSLIP',
  // Spec §6: import needs ADMIN or ACPAYSLIP_CREATE (ACPAYSLIP_ALL stands for every ACPAYSLIP action).
  permissions: { import: ['ACPAYSLIP_ALL', 'ACPAYSLIP_CREATE'] },
  label: '工资条',
  labels: {
    en: {
      _label: 'Payslip', id: 'ID', month: 'Month', xuhao: 'No.', xiaofang: 'School side', gonghao: 'Staff no.', name: 'Name', idCard: 'ID card no.',
      bank: 'Bank', bankNumber: 'Bank account', beizhu: 'Remark', mingcheng: 'Name', banzhuren: 'Class teacher allowance', bishisheng: 'Graduate internship',
      bufaxuesheng: 'Student back pay', chuangshou: 'Revenue generation', fudaoyuan: 'Counsellor allowance', gangweixing: 'Position allowance',
      hengxiang: 'Industry projects', jichu: 'Basic pay', jiaoxue: 'Teaching allowance', juanzeng: 'Donations', kecheng: 'Course fee', keshi: 'Lesson fee',
      kunnan: 'Hardship subsidy', laowu: 'Service pay', lunwen: 'Paper award', shenghuo: 'Living allowance', shuoshi: 'Master supervision',
      teqin: 'Special duty allowance', teshugangwei: 'Special position allowance', teshujixiao: 'Special performance pay', shichu: 'Actual payout',
      tuchu: 'Outstanding contribution', xifa: 'Faculty payment', xiaofa: 'University payment', xiaoling: 'University leadership pay', xieyi: 'Agreed salary',
      xueshi: 'Credit hours', yidi: 'Relocation allowance', zhaosheng: 'Admissions', zhuanjia: 'Expert allowance', zhuanxiang1: 'Special item 1',
      zhuanxiang2: 'Special item 2', zongxiang: 'Government projects', zuopin: 'Work award', zizhu: 'Grant', xiaonei: 'On campus',
      youxiujiang: 'Excellence award', bumenkaohe: 'Department review', nianzhong1: 'Year-end 1', nianzhong2: 'Year-end 2', jiaban: 'Overtime pay',
      koukuan: 'Deductions (pre-tax)', bufa: 'Back pay', bukou: 'Back deduction', jingjibuchang: 'Severance pay', benqi: 'Payable this period',
      yanglao: 'Pension (8%)', yiliao: 'Medical (2%+3)', shiye: 'Unemployment (0.5%)', gongjijin: 'Housing fund (12%)',
      shebaogeren: 'Social insurance (personal total)', shebaogongjijin: 'Insurance and fund total', yingshui: 'Taxable income', yingna: 'Tax payable',
      nianzhong3: 'Year-end 3', buchangshui: 'Severance tax', gonghui: 'Union fee', shuihou: 'After tax', shangyueweikou: 'Owed from last month',
      yingkouweikou: 'Owed (not deducted)', danweidianfu: 'Advanced by company', shifa: 'Net pay', nianzhong4: 'Year-end 4', companyId: 'Company ID',
      source: 'Source', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Nómina', id: 'ID', month: 'Mes', xuhao: 'N.º', xiaofang: 'Centro', gonghao: 'N.º de empleado', name: 'Nombre', idCard: 'N.º de documento',
      bank: 'Banco', bankNumber: 'Cuenta bancaria', beizhu: 'Observaciones', mingcheng: 'Nombre', banzhuren: 'Plus de tutor',
      bishisheng: 'Prácticas de graduados', bufaxuesheng: 'Atrasos de estudiantes', chuangshou: 'Generación de ingresos', fudaoyuan: 'Plus de orientador',
      gangweixing: 'Plus de puesto', hengxiang: 'Proyectos con empresas', jichu: 'Sueldo básico', jiaoxue: 'Plus docente', juanzeng: 'Donaciones',
      kecheng: 'Tarifa de curso', keshi: 'Tarifa por clase', kunnan: 'Ayuda por dificultades', laowu: 'Honorarios', lunwen: 'Premio por publicaciones',
      shenghuo: 'Ayuda de manutención', shuoshi: 'Dirección de máster', teqin: 'Plus de servicio especial', teshugangwei: 'Plus de puesto especial',
      teshujixiao: 'Rendimiento especial', shichu: 'Pago real', tuchu: 'Contribución destacada', xifa: 'Pago de facultad', xiaofa: 'Pago de universidad',
      xiaoling: 'Pago de dirección', xieyi: 'Salario pactado', xueshi: 'Horas lectivas', yidi: 'Plus de desplazamiento', zhaosheng: 'Captación',
      zhuanjia: 'Plus de experto', zhuanxiang1: 'Partida especial 1', zhuanxiang2: 'Partida especial 2', zongxiang: 'Proyectos públicos',
      zuopin: 'Premio por obras', zizhu: 'Subvención', xiaonei: 'En el campus', youxiujiang: 'Premio a la excelencia',
      bumenkaohe: 'Evaluación del departamento', nianzhong1: 'Fin de año 1', nianzhong2: 'Fin de año 2', jiaban: 'Horas extra',
      koukuan: 'Descuentos (antes de impuestos)', bufa: 'Atrasos', bukou: 'Descuento retroactivo', jingjibuchang: 'Indemnización por despido',
      benqi: 'A pagar en el periodo', yanglao: 'Pensión (8%)', yiliao: 'Médico (2%+3)', shiye: 'Desempleo (0,5%)', gongjijin: 'Fondo de vivienda (12%)',
      shebaogeren: 'Seguridad social (total personal)', shebaogongjijin: 'Total seguros y fondo', yingshui: 'Base imponible', yingna: 'Impuesto a pagar',
      nianzhong3: 'Fin de año 3', buchangshui: 'Impuesto de la indemnización', gonghui: 'Cuota sindical', shuihou: 'Después de impuestos',
      shangyueweikou: 'Adeudado del mes anterior', yingkouweikou: 'Adeudado (no descontado)', danweidianfu: 'Anticipado por la empresa', shifa: 'Neto',
      nianzhong4: 'Fin de año 4', companyId: 'ID de empresa', source: 'Origen', createTime: 'Creado', updateTime: 'Actualizado',
    },
    ja: {
      _label: '給与明細', id: 'ID', month: '月', xuhao: '番号', xiaofang: '学校側', gonghao: '社員番号', name: '氏名', idCard: '身分証番号', bank: '銀行', bankNumber: '銀行口座番号',
      beizhu: '備考', mingcheng: '名称', banzhuren: '担任手当', bishisheng: '卒業実習', bufaxuesheng: '学生追加支給', chuangshou: '収益創出', fudaoyuan: '指導員手当', gangweixing: '職務手当',
      hengxiang: '受託研究', jichu: '基礎給', jiaoxue: '授業手当', juanzeng: '寄付', kecheng: '講座料', keshi: '授業時間手当', kunnan: '困窮補助', laowu: '労務費', lunwen: '論文奨励',
      shenghuo: '生活手当', shuoshi: '修士指導', teqin: '特別勤務手当', teshugangwei: '特殊職務手当', teshujixiao: '特別業績給', shichu: '実支出', tuchu: '顕著な貢献', xifa: '学部支給',
      xiaofa: '大学支給', xiaoling: '大学指導部手当', xieyi: '協定給与', xueshi: '学習時間', yidi: '遠隔地手当', zhaosheng: '学生募集', zhuanjia: '専門家手当', zhuanxiang1: '特別項目1',
      zhuanxiang2: '特別項目2', zongxiang: '公的研究課題', zuopin: '作品奨励', zizhu: '助成', xiaonei: '学内', youxiujiang: '優秀賞', bumenkaohe: '部門考課', nianzhong1: '年末1',
      nianzhong2: '年末2', jiaban: '残業手当', koukuan: '控除（税引前）', bufa: '遡及支給', bukou: '遡及控除', jingjibuchang: '経済補償金', benqi: '今期支給額', yanglao: '年金(8%)',
      yiliao: '医療(2%+3)', shiye: '失業(0.5%)', gongjijin: '住宅積立金(12%)', shebaogeren: '社会保険個人合計', shebaogongjijin: '社会保険・積立金合計', yingshui: '課税所得', yingna: '納税額',
      nianzhong3: '年末3', buchangshui: '経済補償金の税額', gonghui: '組合費', shuihou: '税引後', shangyueweikou: '前月の控除不足額', yingkouweikou: '控除不足額', danweidianfu: '会社立替額',
      shifa: '差引支給額', nianzhong4: '年末4', companyId: '取引先ID', source: 'ソース', createTime: '作成日時', updateTime: '更新日時',
    },
  },
  dialogWidth: 800,
  defaultSort: [
    ['month', 'desc'],
    ['idCard', 'asc'],
  ],
  excel: { fileName: '工资条', templateName: '工资条模板', importMode: 'allOrNothing' },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'month', kind: 'month', label: '月份', required: '请选择月份', filter: 'eq' },
    { name: 'xuhao', kind: 'int', label: '序号', min: 0, list: false },
    { name: 'xiaofang', kind: 'string', label: '校方', list: false },
    { name: 'gonghao', kind: 'string', label: '工号', maxLength: 50 },
    { name: 'name', kind: 'string', label: '姓名', required: '请输入姓名', maxLength: 50, filter: 'like' },
    { name: 'idCard', kind: 'idCard', label: '身份证号', required: '请输入身份证号', filter: 'like', width: 180 },
    { name: 'bank', kind: 'string', label: '银行', list: false },
    { name: 'bankNumber', kind: 'string', label: '银行账号', maxLength: 50, list: false },
    { name: 'beizhu', kind: 'string', label: '备注', maxLength: 500, list: false },
    { name: 'mingcheng', kind: 'string', label: '名称', list: false },
    ...PAYSLIP_INCOME_ITEMS.map(money),
    ...PAYSLIP_DEDUCTION_ITEMS.map(money),
    { name: 'companyId', kind: 'int', label: '单位ID', readOnly: true, list: false, detail: false, excel: false },
    { name: 'source', kind: 'string', label: '来源', readOnly: true, list: false, excel: false },
    { name: 'createTime', kind: 'datetime', label: '创建时间', readOnly: true, list: false, excel: false },
    { name: 'updateTime', kind: 'datetime', label: '更新时间', readOnly: true, list: false, excel: false },
  ],
});
