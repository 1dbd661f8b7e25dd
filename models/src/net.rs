//! The policy/value net: a residual convolutional tower over the encoded board with a policy
//! head (logits over the action slots, masked to the legal ones by the caller) and a value head
//! (win / draw / loss logits for the acting player).
//!
//! Every size comes from the net's [`Encoding`] (the game contract, [`engine::observe`]): the
//! input convolution reads `observation.planes` planes of `rows x files`, the policy head's 1x1
//! convolution writes `policy.board_channels` logits per point (channel-major, the board block of
//! the action index) and a linear layer the `policy.extra` slots after it. [`Net::new`] builds
//! for the variant encoding ([`crate::encoding::encoding`], [`ACTIONS`] slots), as every
//! committed net is; [`Net::with_encoding`] for any other. A head with no slots (0 board channels
//! or 0 extra slots) has no layer.
//!
//! Parameter paths are stable and match `scripts/export_torchscript.py` (PyTorch `state_dict`
//! names): `input.conv`, `input.bn`, `tower.<i>.conv1|bn1|conv2|bn2`, `policy.conv|bn|out`,
//! `value.conv|bn|fc1|fc2|extra`. Convolutions before a batch norm have no bias.

use crate::encoding::ACTIONS;
use engine::observe::Encoding;
use serde::{Deserialize, Serialize};
use tch::nn::{self, Module, ModuleT};
use tch::{Device, Kind, Tensor};

/// Sizes of the net (saved with every checkpoint; a mismatch refuses to load).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetConfig {
    /// Residual blocks in the tower.
    pub blocks: usize,
    /// Channels of the tower.
    pub channels: usize,
    /// Channels of the policy head's hidden 1x1 convolution.
    #[serde(default = "default_policy_channels")]
    pub policy_channels: usize,
    /// Channels of the value head's 1x1 convolution.
    #[serde(default = "default_value_channels")]
    pub value_channels: usize,
    /// Width of the value head's hidden layer.
    #[serde(default = "default_value_hidden")]
    pub value_hidden: usize,
}

fn default_policy_channels() -> usize {
    16
}
fn default_value_channels() -> usize {
    4
}
fn default_value_hidden() -> usize {
    64
}

impl NetConfig {
    /// A config with the default head sizes.
    pub fn new(blocks: usize, channels: usize) -> NetConfig {
        NetConfig {
            blocks,
            channels,
            policy_channels: default_policy_channels(),
            value_channels: default_value_channels(),
            value_hidden: default_value_hidden(),
        }
    }
}

#[derive(Debug)]
struct ConvBn {
    conv: nn::Conv2D,
    bn: nn::BatchNorm,
}

fn bn_config() -> nn::BatchNormConfig {
    nn::BatchNormConfig { ws_init: nn::Init::Const(1.0), ..Default::default() }
}

impl ConvBn {
    fn new(p: &nn::Path, cin: usize, cout: usize, k: usize) -> ConvBn {
        let cfg = nn::ConvConfig { padding: (k / 2) as i64, bias: false, ..Default::default() };
        ConvBn {
            conv: nn::conv2d(p / "conv", cin as i64, cout as i64, k as i64, cfg),
            bn: nn::batch_norm2d(p / "bn", cout as i64, bn_config()),
        }
    }
    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        self.bn.forward_t(&self.conv.forward(x), train)
    }
}

#[derive(Debug)]
struct Block {
    conv1: nn::Conv2D,
    bn1: nn::BatchNorm,
    conv2: nn::Conv2D,
    bn2: nn::BatchNorm,
}

impl Block {
    fn new(p: &nn::Path, c: usize) -> Block {
        let cfg = nn::ConvConfig { padding: 1, bias: false, ..Default::default() };
        Block {
            conv1: nn::conv2d(p / "conv1", c as i64, c as i64, 3, cfg),
            bn1: nn::batch_norm2d(p / "bn1", c as i64, bn_config()),
            conv2: nn::conv2d(p / "conv2", c as i64, c as i64, 3, cfg),
            bn2: nn::batch_norm2d(p / "bn2", c as i64, bn_config()),
        }
    }
    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        let y = self.bn1.forward_t(&self.conv1.forward(x), train).relu();
        let y = self.bn2.forward_t(&self.conv2.forward(&y), train);
        (y + x).relu()
    }
}

/// The policy/value net and the variables it owns.
pub struct Net {
    vs: nn::VarStore,
    config: NetConfig,
    encoding: Encoding,
    input: ConvBn,
    tower: Vec<Block>,
    /// The board block of the policy (`None` when the encoding has no board channels).
    policy: Option<(ConvBn, nn::Conv2D)>,
    value: ConvBn,
    value_fc1: nn::Linear,
    value_fc2: nn::Linear,
    /// The extra policy slots (`None` when the encoding has none).
    value_extra: Option<nn::Linear>,
}

/// Net outputs for a batch of positions, on the CPU: priors over each position's legal slots (in
/// the order given) and win/draw/loss probabilities.
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    /// `priors[offsets[i]..offsets[i + 1]]` are position `i`'s priors.
    pub priors: Vec<f32>,
    /// Start of each position's priors (length `n + 1`).
    pub offsets: Vec<usize>,
    /// Win, draw, loss probabilities for the acting player, 3 per position.
    pub wdl: Vec<f32>,
}

impl Evaluation {
    /// Position `i`'s priors over its legal slots.
    pub fn priors(&self, i: usize) -> &[f32] {
        &self.priors[self.offsets[i]..self.offsets[i + 1]]
    }
    /// Position `i`'s value for the acting player, `P(win) - P(loss)`.
    pub fn value(&self, i: usize) -> f32 {
        self.wdl[3 * i] - self.wdl[3 * i + 2]
    }
}

impl Net {
    /// A freshly initialised net for the variant encoding ([`crate::encoding::encoding`]) on
    /// `device`; `seed` makes the initial weights reproducible.
    pub fn new(config: &NetConfig, device: Device, seed: u64) -> Net {
        Net::with_encoding(config, &crate::encoding::encoding(), device, seed)
    }

    /// A freshly initialised net for `encoding` on `device` (sizes in the module documentation);
    /// `seed` makes the initial weights reproducible.
    pub fn with_encoding(config: &NetConfig, encoding: &Encoding, device: Device, seed: u64) -> Net {
        tch::manual_seed(seed as i64);
        let vs = nn::VarStore::new(device);
        let root = vs.root();
        let c = config.channels;
        let input = ConvBn::new(&(&root / "input"), encoding.observation.planes, c, 3);
        let tower = (0..config.blocks).map(|i| Block::new(&(&root / "tower" / i), c)).collect();
        let pp = &root / "policy";
        let board = encoding.policy.board_channels as i64;
        let policy = (board > 0).then(|| {
            let hidden = ConvBn::new(&pp, c, config.policy_channels, 1);
            (hidden, nn::conv2d(&pp / "out", config.policy_channels as i64, board, 1, Default::default()))
        });
        let vp = &root / "value";
        let value = ConvBn::new(&vp, c, config.value_channels, 1);
        let flat = (config.value_channels * encoding.observation.points()) as i64;
        let value_fc1 = nn::linear(&vp / "fc1", flat, config.value_hidden as i64, Default::default());
        let value_fc2 = nn::linear(&vp / "fc2", config.value_hidden as i64, 3, Default::default());
        let extra = encoding.policy.extra as i64;
        let value_extra = (extra > 0).then(|| nn::linear(&vp / "extra", config.value_hidden as i64, extra, Default::default()));
        Net { vs, config: config.clone(), encoding: encoding.clone(), input, tower, policy, value, value_fc1, value_fc2, value_extra }
    }

    /// The sizes.
    pub fn config(&self) -> &NetConfig {
        &self.config
    }

    /// The encoding the net reads and writes (game, version, shapes).
    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    /// The device the variables live on.
    pub fn device(&self) -> Device {
        self.vs.device()
    }

    /// The variables (for checkpoints and the optimiser).
    pub fn var_store(&self) -> &nn::VarStore {
        &self.vs
    }

    /// The variables, mutably (loading).
    pub fn var_store_mut(&mut self) -> &mut nn::VarStore {
        &mut self.vs
    }

    /// Number of trainable parameters.
    pub fn parameter_count(&self) -> i64 {
        self.vs.trainable_variables().iter().map(|t| t.numel() as i64).sum()
    }

    /// Policy logits `[n, actions]` and value logits `[n, 3]` (win, draw, loss) for observations
    /// `[n, planes, rows, files]` (sizes of [`Net::encoding`]); `train` selects batch statistics
    /// (training) or running ones.
    pub fn forward_t(&self, x: &Tensor, train: bool) -> (Tensor, Tensor) {
        let mut h = self.input.forward_t(x, train).relu();
        for b in &self.tower {
            h = b.forward_t(&h, train);
        }
        let n = x.size()[0];
        let v = self.value.forward_t(&h, train).relu().flatten(1, -1);
        let v = self.value_fc1.forward(&v).relu();
        let wdl = self.value_fc2.forward(&v);
        let mut parts = Vec::with_capacity(2);
        if let Some((hidden, out)) = &self.policy {
            let p = hidden.forward_t(&h, train).relu();
            parts.push(out.forward(&p).reshape([n, self.encoding.board_slots() as i64]));
        }
        if let Some(extra) = &self.value_extra {
            parts.push(extra.forward(&v));
        }
        let logits = if parts.is_empty() { Tensor::zeros([n, 0], (Kind::Float, x.device())) } else { Tensor::cat(&parts, 1) };
        (logits, wdl)
    }

    /// Evaluates `n` positions without gradients: `obs` holds `n * obs_len` floats (of
    /// [`Net::encoding`]), `legal[i]` the legal slots of position `i`. Priors are the softmax of
    /// the policy logits over each position's legal slots.
    ///
    /// # Panics
    /// When `obs` is not `n * obs_len` floats long.
    pub fn evaluate(&self, obs: &[f32], legal: &[&[u16]]) -> Evaluation {
        let n = legal.len();
        assert_eq!(obs.len(), n * self.encoding.obs_len(), "observation batch");
        if n == 0 {
            return Evaluation { offsets: vec![0], ..Default::default() };
        }
        let lmax = legal.iter().map(|l| l.len()).max().unwrap_or(0).max(1);
        let mut idx = vec![0i64; n * lmax];
        let mut valid = vec![false; n * lmax];
        for (i, l) in legal.iter().enumerate() {
            for (j, &a) in l.iter().enumerate() {
                idx[i * lmax + j] = i64::from(a);
                valid[i * lmax + j] = true;
            }
        }
        let dev = self.device();
        let (priors, wdl) = tch::no_grad(|| {
            let x = obs_tensor_for(obs, &self.encoding, dev);
            let (logits, v) = self.forward_t(&x, false);
            let idx = Tensor::from_slice(&idx).view([n as i64, lmax as i64]).to_device(dev);
            let valid = Tensor::from_slice(&valid).view([n as i64, lmax as i64]).to_device(dev);
            let g = logits.gather(1, &idx, false).masked_fill(&valid.logical_not(), f64::NEG_INFINITY);
            let p = g.softmax(1, Kind::Float).nan_to_num(0.0, None, None).to_device(Device::Cpu);
            (p, v.softmax(1, Kind::Float).to_device(Device::Cpu))
        });
        let p: Vec<f32> = tensor_to_vec(&priors);
        let wdl: Vec<f32> = tensor_to_vec(&wdl);
        let mut out = Evaluation { priors: Vec::with_capacity(legal.iter().map(|l| l.len()).sum()), offsets: vec![0], wdl };
        for (i, l) in legal.iter().enumerate() {
            out.priors.extend_from_slice(&p[i * lmax..i * lmax + l.len()]);
            out.offsets.push(out.priors.len());
        }
        out
    }

    /// A copy of this net (same device, same values).
    pub fn duplicate(&self) -> Net {
        let mut n = Net::with_encoding(&self.config, &self.encoding, self.device(), 0);
        n.copy_from(self).expect("same architecture");
        n
    }

    /// Copies every variable from `other` (same config).
    pub fn copy_from(&mut self, other: &Net) -> Result<(), tch::TchError> {
        self.vs.copy(&other.vs)
    }
}

/// A float tensor's values in order.
pub fn tensor_to_vec(t: &Tensor) -> Vec<f32> {
    let t = t.to_kind(Kind::Float).contiguous().view([-1]);
    let n = t.numel();
    let mut out = vec![0f32; n];
    t.copy_data(&mut out, n);
    out
}

/// Dense observations of the variant encoding for `n` positions as a `[n, PLANES, 10, 9]` tensor.
pub fn obs_tensor(obs: &[f32], device: Device) -> Tensor {
    obs_tensor_for(obs, &crate::encoding::encoding(), device)
}

/// Dense observations of `encoding` for `n` positions as a `[n, planes, rows, files]` tensor
/// (`n = obs.len() / obs_len`).
pub fn obs_tensor_for(obs: &[f32], encoding: &Encoding, device: Device) -> Tensor {
    let o = &encoding.observation;
    let n = (obs.len() / encoding.obs_len().max(1)) as i64;
    Tensor::from_slice(obs).view([n, o.planes as i64, o.rows as i64, o.files as i64]).to_device(device)
}

/// Number of policy slots of the variant encoding (for callers that size buffers).
pub const POLICY_SLOTS: usize = ACTIONS;
