import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * 增减员 lists for the social-insurance bureau and the housing-fund centre (issue 24 item 3).
 *
 * `accounts_si_change_template`: a city's 增员 / 减员 / 基数变更 column sets as data
 * (shared/resources/siChangeTemplate.ts), seeded with Beijing and Shenzhen, 社保 and 公积金:
 * - 北京 社保 增员 and 深圳 社保 增员: the column sets month-close.md §B4 found in public code [S];
 * - 减员 of both cities: the columns §B4 gives from memory [M] (个人编号/电脑号, 姓名, 证件号码, 减员原因, 停保年月);
 * - 基数变更 and every 公积金 list: no layout was found [?]; the seeds hold the usual columns of such lists.
 * Each seed's 备注 says which, and the constants (参加险种, 医疗缴费档次 …) are to be checked against the bureau's
 * current template at deployment, which is why these are rows an operator edits and not code.
 */

const cols = (list: object[]) => JSON.stringify(list);

/** Beijing's 缴费人员类别 for our census types (dictionary census_type values). */
const BEIJING_CATEGORY = { bencheng: '本市城镇', waicheng: '外埠城镇', bennong: '本市农村', wainong: '外埠农村', bennong_24: '本市农村' };
/** Shenzhen's 户籍 (深户 / 非深户) and 户籍地类别 (城镇 / 农村) for our census types. */
const SHENZHEN_HUKOU = { bencheng: '深户', bennong: '深户', bennong_24: '深户', waicheng: '非深户', wainong: '非深户' };
const SHENZHEN_AREA = { bencheng: '城镇', waicheng: '城镇', bennong: '农村', bennong_24: '农村', wainong: '农村' };

const SEEDS = [
  {
    template_name: '北京 社保 增减员',
    region: '北京',
    target: 'si',
    file_type: 'xls',
    add_columns: cols([
      { title: '姓名', field: 'name' },
      { title: '公民身份号码', field: 'idNumber' },
      { title: '缴费人员类别', field: 'censusType', map: BEIJING_CATEGORY },
      { title: '月均工资收入', field: 'yanglaoBase', format: 'yuan' },
      { title: '参加险种', value: '养老,失业,工伤,医疗,生育' },
      { title: '医疗参保人员类别', value: '在职' },
      { title: '增员原因', field: 'reason' },
    ]),
    remove_columns: cols([
      { title: '个人编号', field: 'personalNo' },
      { title: '姓名', field: 'name' },
      { title: '公民身份号码', field: 'idNumber' },
      { title: '减员原因', field: 'reason' },
      { title: '停保年月', field: 'startMonth', format: 'yyyyMM' },
    ]),
    base_columns: cols([
      { title: '个人编号', field: 'personalNo' },
      { title: '姓名', field: 'name' },
      { title: '公民身份号码', field: 'idNumber' },
      { title: '原月均工资收入', field: 'oldBase', format: 'yuan' },
      { title: '月均工资收入', field: 'newBase', format: 'yuan' },
      { title: '变更年月', field: 'startMonth', format: 'yyyyMM' },
    ]),
    remark: '增员列见参考资料§B4（公开代码）；减员列凭记忆、基数变更列未经核实；参加险种、医疗参保人员类别请按社保经办系统当前模板核对',
  },
  {
    template_name: '深圳 社保 增减员',
    region: '深圳',
    target: 'si',
    file_type: 'xls',
    add_columns: cols([
      { title: '证件号码', field: 'idNumber' },
      { title: '姓名', field: 'name' },
      { title: '户籍', field: 'censusType', map: SHENZHEN_HUKOU },
      { title: '入深户时间', value: '' },
      { title: '民族', field: 'nation' },
      { title: '手机号码', field: 'phone' },
      { title: '通讯地址', field: 'address' },
      { title: '电脑号', field: 'personalNo' },
      { title: '岗位类别', value: '' },
      { title: '个人身份', value: '' },
      { title: '用工形式', value: '劳务派遣' },
      { title: '学历', field: 'education' },
      { title: '职称', value: '' },
      { title: '国家职业资格或职业技能等级', value: '' },
      { title: '医疗缴费档次', value: '一档' },
      { title: '部门名称', field: 'dept' },
      { title: '户籍地类别', field: 'censusType', map: SHENZHEN_AREA },
      { title: '户口所在地行政区划代码', value: '' },
      { title: '就业形式', value: '' },
      { title: '就业前身份', value: '' },
      { title: '社保缴交基数', field: 'yanglaoBase', format: 'yuan' },
      { title: '公积金缴交基数', field: 'gjjBase', format: 'yuan' },
      { title: '公积金号', value: '' },
    ]),
    remove_columns: cols([
      { title: '电脑号', field: 'personalNo' },
      { title: '姓名', field: 'name' },
      { title: '证件号码', field: 'idNumber' },
      { title: '减员原因', field: 'reason' },
      { title: '停保年月', field: 'startMonth', format: 'yyyyMM' },
    ]),
    base_columns: cols([
      { title: '电脑号', field: 'personalNo' },
      { title: '姓名', field: 'name' },
      { title: '证件号码', field: 'idNumber' },
      { title: '原缴交基数', field: 'oldBase', format: 'yuan' },
      { title: '缴交基数', field: 'newBase', format: 'yuan' },
      { title: '生效年月', field: 'startMonth', format: 'yyyyMM' },
    ]),
    remark: '增员列见参考资料§B4（公开代码；最后三列仅供核对）；补报的增员需原因（上期漏报/延迟增员）与4字以上说明；减员列凭记忆、基数变更列未经核实',
  },
  {
    template_name: '北京 公积金 汇缴变更',
    region: '北京',
    target: 'hf',
    file_type: 'xlsx',
    add_columns: cols([
      { title: '姓名', field: 'name' },
      { title: '证件类型', field: 'idType' },
      { title: '证件号码', field: 'idNumber' },
      { title: '性别', field: 'sex' },
      { title: '出生日期', field: 'born', format: 'yyyy-MM-dd' },
      { title: '手机号码', field: 'phone' },
      { title: '缴存基数', field: 'gjjBase', format: 'yuan' },
      { title: '缴存比例', field: 'gjjRatio', format: 'percent' },
      { title: '起缴年月', field: 'startMonth', format: 'yyyyMM' },
    ]),
    remove_columns: cols([
      { title: '个人账号', field: 'personalNo' },
      { title: '姓名', field: 'name' },
      { title: '证件号码', field: 'idNumber' },
      { title: '封存原因', field: 'reason' },
      { title: '封存年月', field: 'startMonth', format: 'yyyyMM' },
    ]),
    base_columns: cols([
      { title: '个人账号', field: 'personalNo' },
      { title: '姓名', field: 'name' },
      { title: '证件号码', field: 'idNumber' },
      { title: '原缴存基数', field: 'oldBase', format: 'yuan' },
      { title: '新缴存基数', field: 'newBase', format: 'yuan' },
      { title: '生效年月', field: 'startMonth', format: 'yyyyMM' },
    ]),
    remark: '未找到公积金中心的公开模板：列为常见的开户、封存、基数调整项，请按住房公积金管理中心当前模板核对',
  },
  {
    template_name: '深圳 公积金 汇缴变更',
    region: '深圳',
    target: 'hf',
    file_type: 'xls',
    add_columns: cols([
      { title: '姓名', field: 'name' },
      { title: '证件类型', field: 'idType' },
      { title: '证件号码', field: 'idNumber' },
      { title: '手机号码', field: 'phone' },
      { title: '月缴存基数', field: 'gjjBase', format: 'yuan' },
      { title: '缴存比例', field: 'gjjRatio', format: 'percent' },
      { title: '起缴年月', field: 'startMonth', format: 'yyyyMM' },
    ]),
    remove_columns: cols([
      { title: '个人公积金账号', field: 'personalNo' },
      { title: '姓名', field: 'name' },
      { title: '证件号码', field: 'idNumber' },
      { title: '封存原因', field: 'reason' },
      { title: '封存年月', field: 'startMonth', format: 'yyyyMM' },
    ]),
    base_columns: cols([
      { title: '个人公积金账号', field: 'personalNo' },
      { title: '姓名', field: 'name' },
      { title: '证件号码', field: 'idNumber' },
      { title: '原月缴存基数', field: 'oldBase', format: 'yuan' },
      { title: '月缴存基数', field: 'newBase', format: 'yuan' },
      { title: '生效年月', field: 'startMonth', format: 'yyyyMM' },
    ]),
    remark: '未找到公积金中心的公开模板：列为常见的开户、封存、基数调整项，请按住房公积金管理中心当前模板核对',
  },
];

export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_si_change_template', (t) =>
    t
      .id()
      .string('template_name', 100, { notNull: true })
      .string('region', 50, { notNull: true })
      .string('target', 10, { notNull: true })
      .string('file_type', 10, { notNull: true })
      .string('encoding', 20, { notNull: true })
      .bool('title_row', { notNull: true, default: true })
      .string('unit_no', 50)
      .string('unit_name', 100)
      .string('file_name_pattern', 100)
      .text('header_lines')
      .text('add_columns')
      .text('remove_columns')
      .text('base_columns')
      .string('remark', 255)
      .timestamps()
      .unique('template_name'),
  );
  const now = new Date().toISOString();
  await db
    .insertInto('accounts_si_change_template')
    .values(SEEDS.map((s) => ({ ...s, encoding: 'GBK', title_row: 1, header_lines: '', create_time: now, update_time: now })))
    .execute();
}
