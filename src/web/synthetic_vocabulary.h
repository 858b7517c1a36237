// Word lists of the synthetic web (internal to synthetic_web.cc). Each topic
// has English and Simplified Chinese keywords, most characteristic first
// (the generator samples early words more often, a Zipf-like skew).
#ifndef TOPICRAWL_WEB_SYNTHETIC_VOCABULARY_H_
#define TOPICRAWL_WEB_SYNTHETIC_VOCABULARY_H_

namespace topicrawl::web::synthetic {

struct TopicWords {
  const char* name;  // also the English URL slug
  const char* en;    // space-separated
  const char* zh;    // space-separated
};

inline constexpr TopicWords kTopics[] = {
    {"networking",
     "network protocol tcp socket packet router udp http latency bandwidth dns ethernet proxy "
     "gateway ip address routing firewall port connection handshake throughput wireless switch "
     "subnet tls",
     "网络 协议 套接字 数据包 路由器 带宽 延迟 域名 以太网 代理 网关 地址 路由 连接 握手 吞吐量 "
     "无线 交换机 子网 传输 TCP 服务器 客户端 端口"},
    {"security",
     "security encryption vulnerability authentication password attack malware exploit "
     "certificate cipher firewall privilege intrusion phishing hash signature audit patch "
     "threat sandbox breach token key integrity",
     "安全 加密 漏洞 认证 密码 攻击 恶意软件 证书 权限 入侵 钓鱼 哈希 签名 审计 补丁 威胁 沙箱 "
     "泄露 令牌 密钥 完整性 防护 病毒 防火墙"},
    {"databases",
     "database query index table transaction schema sql join replication storage record "
     "column key backup cursor partition cache commit rollback shard row view trigger",
     "数据库 查询 索引 表 事务 模式 连接 复制 存储 记录 列 主键 备份 游标 分区 缓存 提交 回滚 "
     "分片 行 视图 触发器"},
    {"cooking",
     "recipe kitchen flavor oven sauce bake ingredient garlic simmer roast dough spice butter "
     "onion pepper grill dessert broth salad noodle braise tomato vinegar",
     "菜谱 厨房 味道 烤箱 酱汁 烘焙 食材 大蒜 炖 烤 面团 香料 黄油 洋葱 辣椒 甜点 汤 沙拉 面条 "
     "红烧 番茄 醋 火候"},
    {"football",
     "football match goal striker league coach stadium penalty referee midfielder tournament "
     "season defender keeper transfer fans dribble tackle offside championship squad",
     "足球 比赛 进球 前锋 联赛 教练 球场 点球 裁判 中场 锦标赛 赛季 后卫 守门员 转会 球迷 盘带 "
     "铲球 越位 冠军 球队"},
    {"music",
     "music melody concert guitar rhythm album orchestra piano chord singer composer band "
     "harmony lyrics violin tempo symphony jazz opera drum chorus",
     "音乐 旋律 音乐会 吉他 节奏 专辑 乐团 钢琴 和弦 歌手 作曲家 乐队 和声 歌词 小提琴 节拍 "
     "交响乐 爵士 歌剧 鼓 合唱"},
    {"astronomy",
     "astronomy telescope galaxy planet orbit star nebula comet asteroid cosmos eclipse "
     "supernova observatory spectrum gravity moon meteor constellation quasar pulsar",
     "天文 望远镜 星系 行星 轨道 恒星 星云 彗星 小行星 宇宙 日食 超新星 天文台 光谱 引力 月球 "
     "流星 星座 类星体 脉冲星"},
    {"finance",
     "finance stock market investment bond interest dividend portfolio inflation bank loan "
     "equity currency trading asset credit fund tax budget revenue mortgage",
     "金融 股票 市场 投资 债券 利息 股息 投资组合 通货膨胀 银行 贷款 股权 货币 交易 资产 信贷 "
     "基金 税收 预算 收入 抵押"},
    {"gardening",
     "garden soil seed plant compost flower prune harvest fertilizer greenhouse weed shrub "
     "bloom orchard mulch irrigation bulb vegetable hedge sapling",
     "园艺 土壤 种子 植物 堆肥 花卉 修剪 收获 肥料 温室 杂草 灌木 开花 果园 覆盖物 灌溉 球茎 "
     "蔬菜 树篱 树苗"},
    {"travel",
     "travel flight hotel passport itinerary luggage tourist beach museum visa airport "
     "backpack cruise resort sightseeing journey hostel ticket island guide",
     "旅游 航班 酒店 护照 行程 行李 游客 海滩 博物馆 签证 机场 背包 游轮 度假村 观光 旅程 "
     "青年旅舍 门票 海岛 导游"},
    {"medicine",
     "medicine patient diagnosis therapy clinical symptom vaccine surgery dose hospital "
     "disease infection treatment nurse prescription chronic immune cardiac tumor",
     "医学 病人 诊断 治疗 临床 症状 疫苗 手术 剂量 医院 疾病 感染 疗法 护士 处方 慢性 免疫 "
     "心脏 肿瘤"},
    {"history",
     "history empire dynasty war revolution ancient medieval archive treaty kingdom "
     "civilization emperor colonial century monument chronicle battle manuscript",
     "历史 帝国 王朝 战争 革命 古代 中世纪 档案 条约 王国 文明 皇帝 殖民 世纪 纪念碑 编年史 "
     "战役 手稿"},
    {"chemistry",
     "chemistry molecule reaction acid compound catalyst element bond solution oxidation "
     "polymer electron isotope titration solvent enzyme crystal ion",
     "化学 分子 反应 酸 化合物 催化剂 元素 化学键 溶液 氧化 聚合物 电子 同位素 滴定 溶剂 酶 "
     "晶体 离子"},
    {"film",
     "film movie director actor screenplay cinema scene camera premiere documentary editing "
     "festival trailer studio animation cast sequel",
     "电影 影片 导演 演员 剧本 影院 场景 摄影机 首映 纪录片 剪辑 电影节 预告片 制片厂 动画 "
     "演员表 续集"},
    {"law",
     "law court judge contract statute lawsuit attorney verdict appeal regulation "
     "constitution evidence plaintiff defendant jury liability legislation",
     "法律 法院 法官 合同 法规 诉讼 律师 判决 上诉 条例 宪法 证据 原告 被告 陪审团 责任 立法"},
    {"agriculture",
     "agriculture farm crop wheat livestock tractor irrigation yield harvest cattle rice "
     "pasture grain dairy poultry fertilizer barn",
     "农业 农场 作物 小麦 牲畜 拖拉机 灌溉 产量 收割 牛 水稻 牧场 粮食 乳业 家禽 化肥 谷仓"},
};

inline constexpr const char* kCommonEn =
    "the of and to in is that for it as with was on be by this are from at or an which "
    "have not but all can were when there been more one their also has its into other "
    "some these time may would about first two new many only most over such after "
    "between how part both each used use well where under while people year work "
    "example section page following described important different general several "
    "number system information based provides shows given note however since often "
    "common case large small early later known called include including result "
    "results however within without using way make made found three long around place "
    "point study report overview introduction summary detail details article reference";

inline constexpr const char* kCommonZh =
    "的 是 在 和 了 有 我们 可以 这个 一个 中 对 也 就 都 与 为 而 及 等 其 将 被 从 "
    "但是 因为 所以 如果 已经 可能 需要 进行 通过 使用 相关 主要 一些 这些 不同 重要 "
    "方面 问题 方法 情况 部分 介绍 说明 例如 以及 其中 目前 发展 工作 时间 内容 信息 "
    "系统 影响 基本 一般 包括 关于 提供 认为 表示 作为 之后 之前 同时 方式";

// Neutral URL slugs (used when the slug does not name the topic).
inline constexpr const char* kNeutralSlugs =
    "docs articles pages archive notes library wiki blog posts section content items";

}  // namespace topicrawl::web::synthetic

#endif  // TOPICRAWL_WEB_SYNTHETIC_VOCABULARY_H_
