// libtorch's own `pretty_print` of its modules (what ktorch's `str` prints for them, through
// c10::str(module)): each module made with the options of ktorch's help examples (`help`module`),
// then a few with non-default options, printed as `name<TAB>text`, one per line (nested
// modules' newlines written as \n). The output is tests/data/libtorch_pretty_print.txt, which
// tests/q/ktorch_fidelity3.q compares `str` with. Regenerate with tests/gen/pretty_print.sh.
#include <torch/torch.h>
#include <iostream>
#include <sstream>

namespace nn = torch::nn;
using torch::ExpandingArray;

template <typename M> static void show(const char* name, const M& m) {
  std::ostringstream s;
  s << *m;
  std::string t = s.str(), r;
  for (char c : t) { if (c == '\n') r += "\\n"; else r += c; }
  std::cout << name << '\t' << r << std::endl;
}

int main() {
  show("adaptavg1d", nn::AdaptiveAvgPool1d(3));
  show("adaptavg2d", nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({3, 2})));
  show("adaptavg3d", nn::AdaptiveAvgPool3d(nn::AdaptiveAvgPool3dOptions({3, 2, 4})));
  show("adaptmax1d", nn::AdaptiveMaxPool1d(3));
  show("adaptmax2d", nn::AdaptiveMaxPool2d(nn::AdaptiveMaxPool2dOptions({3, 2})));
  show("adaptmax3d", nn::AdaptiveMaxPool3d(nn::AdaptiveMaxPool3dOptions({3, 2, 4})));
  show("adrop", nn::AlphaDropout(0.5));
  show("avgpool1d", nn::AvgPool1d(3));
  show("avgpool2d", nn::AvgPool2d(nn::AvgPool2dOptions({3, 2})));
  show("avgpool3d", nn::AvgPool3d(nn::AvgPool3dOptions({3, 2, 2})));
  show("batchnorm1d", nn::BatchNorm1d(32));
  show("batchnorm2d", nn::BatchNorm2d(32));
  show("batchnorm3d", nn::BatchNorm3d(32));
  show("bilinear", nn::Bilinear(20, 30, 40));
  show("celu", nn::CELU());
  show("conv1d", nn::Conv1d(nn::Conv1dOptions(16, 32, 3)));
  show("conv2d", nn::Conv2d(nn::Conv2dOptions(16, 32, {3, 5})));
  show("conv3d", nn::Conv3d(nn::Conv3dOptions(16, 32, {3, 5, 2})));
  show("convtranspose1d", nn::ConvTranspose1d(nn::ConvTranspose1dOptions(128, 64, 5)));
  show("convtranspose2d", nn::ConvTranspose2d(nn::ConvTranspose2dOptions(128, 64, {3, 5})));
  show("convtranspose3d", nn::ConvTranspose3d(nn::ConvTranspose3dOptions(128, 64, {3, 5, 2})));
  show("crossmap2d", nn::CrossMapLRN2d(2));
  show("drop", nn::Dropout(0.5));
  show("drop2d", nn::Dropout2d(0.5));
  show("drop3d", nn::Dropout3d(0.5));
  show("elu", nn::ELU());
  show("embedbag", nn::EmbeddingBag(1000, 64));
  show("fadrop", nn::FeatureAlphaDropout(0.5));
  show("flatten", nn::Flatten());
  show("fmaxpool2d", nn::FractionalMaxPool2d(nn::FractionalMaxPool2dOptions({2, 4}).output_size(ExpandingArray<2>({16, 32}))));
  show("fmaxpool3d", nn::FractionalMaxPool3d(nn::FractionalMaxPool3dOptions({2, 4, 3}).output_size(ExpandingArray<3>({16, 32, 24}))));
  show("fold", nn::Fold(nn::FoldOptions({4, 6}, {2, 3})));
  show("gelu", nn::GELU());
  show("glu", nn::GLU());
  show("groupnorm", nn::GroupNorm(3, 6));
  show("hardshrink", nn::Hardshrink());
  show("hardtanh", nn::Hardtanh());
  show("identity", nn::Identity());
  show("instancenorm1d", nn::InstanceNorm1d(100));
  show("instancenorm2d", nn::InstanceNorm2d(100));
  show("instancenorm3d", nn::InstanceNorm3d(100));
  show("leakyrelu", nn::LeakyReLU());
  show("localnorm", nn::LocalResponseNorm(2));
  show("logsigmoid", nn::LogSigmoid());
  show("logsoftmax", nn::LogSoftmax(1));
  show("lppool1d", nn::LPPool1d(2, 3));
  show("lppool2d", nn::LPPool2d(nn::LPPool2dOptions(1.2, {2, 3})));
  show("maxpool1d", nn::MaxPool1d(3));
  show("maxpool2d", nn::MaxPool2d(nn::MaxPool2dOptions({3, 2})));
  show("maxpool3d", nn::MaxPool3d(nn::MaxPool3dOptions({3, 2, 2})));
  show("mish", nn::Mish());
  show("pad1d", nn::ConstantPad1d(nn::ConstantPad1dOptions({1, 2}, 0)));
  show("pad2d", nn::ConstantPad2d(nn::ConstantPad2dOptions({1, 1, 2, 2}, 0)));
  show("pad3d", nn::ConstantPad3d(nn::ConstantPad3dOptions({3, 3, 6, 6, 0, 1}, 3.5)));
  show("pairwise", nn::PairwiseDistance());
  show("prelu", nn::PReLU());
  show("reflect1d", nn::ReflectionPad1d(nn::ReflectionPad1dOptions({1, 2})));
  show("reflect2d", nn::ReflectionPad2d(nn::ReflectionPad2dOptions({1, 1, 2, 0})));
  show("relu", nn::ReLU());
  show("relu6", nn::ReLU6());
  show("replicate1d", nn::ReplicationPad1d(nn::ReplicationPad1dOptions({1, 2})));
  show("replicate2d", nn::ReplicationPad2d(nn::ReplicationPad2dOptions({1, 1, 2, 0})));
  show("replicate3d", nn::ReplicationPad3d(nn::ReplicationPad3dOptions({3, 3, 6, 6, 1, 1})));
  show("rrelu", nn::RReLU());
  show("selu", nn::SELU());
  show("sigmoid", nn::Sigmoid());
  show("silu", nn::SiLU());
  show("similar", nn::CosineSimilarity());
  show("softmax", nn::Softmax(1));
  show("softmax2d", nn::Softmax2d());
  show("softmin", nn::Softmin(1));
  show("softplus", nn::Softplus());
  show("softshrink", nn::Softshrink());
  show("softsign", nn::Softsign());
  show("tanh", nn::Tanh());
  show("tanhshrink", nn::Tanhshrink());
  show("threshold", nn::Threshold(0.1, 0));
  show("unfold", nn::Unfold(nn::UnfoldOptions({2, 3})));
  show("upsample", nn::Upsample(nn::UpsampleOptions().size(std::vector<int64_t>{4})));
  show("zeropad2d", nn::ZeroPad2d(nn::ZeroPad2dOptions({1, 1, 2, 0})));
  show("moduledict", nn::ModuleDict());
  show("modulelist", nn::ModuleList());
  show("parmdict", nn::ParameterDict());
  show("sequential", nn::Sequential());
  show("decoder", nn::TransformerDecoder(nn::TransformerDecoderOptions(nn::TransformerDecoderLayer(8, 2), 1)));
  show("encoder", nn::TransformerEncoder(nn::TransformerEncoderOptions(nn::TransformerEncoderLayer(8, 2), 1)));
  show("transformer", nn::Transformer(nn::TransformerOptions(8, 2, 1, 1).dim_feedforward(16)));
  // options away from their defaults
  show("adrop+", nn::AlphaDropout(nn::AlphaDropoutOptions(0.25).inplace(true)));
  show("avgpool2d+", nn::AvgPool2d(nn::AvgPool2dOptions({3, 2}).stride(1).padding(1).ceil_mode(true).count_include_pad(false).divisor_override(2)));
  show("batchnorm2d+", nn::BatchNorm2d(nn::BatchNorm2dOptions(8).eps(0.01).momentum(0.2).affine(false).track_running_stats(false)));
  show("bilinear+", nn::Bilinear(nn::BilinearOptions(2, 3, 4).bias(false)));
  show("celu+", nn::CELU(nn::CELUOptions().alpha(2).inplace(true)));
  show("conv2d+", nn::Conv2d(nn::Conv2dOptions(16, 32, {3, 5}).stride(2).padding(1).dilation(2).groups(2).bias(false).padding_mode(torch::kReflect)));
  show("convtranspose2d+", nn::ConvTranspose2d(nn::ConvTranspose2dOptions(4, 8, 3).stride(2).padding(1).output_padding(1).groups(2).bias(false).dilation(2)));
  show("drop+", nn::Dropout(nn::DropoutOptions(0.25).inplace(true)));
  show("elu+", nn::ELU(nn::ELUOptions().alpha(2).inplace(true)));
  show("embedbag+", nn::EmbeddingBag(nn::EmbeddingBagOptions(10, 4).max_norm(2).norm_type(1).scale_grad_by_freq(true).mode(torch::kSum).sparse(true).include_last_offset(true).padding_idx(1)));
  show("flatten+", nn::Flatten(nn::FlattenOptions().start_dim(0).end_dim(2)));
  show("fmaxpool2d+", nn::FractionalMaxPool2d(nn::FractionalMaxPool2dOptions(2).output_ratio(std::vector<double>{0.5, 0.5})));
  show("fold+", nn::Fold(nn::FoldOptions({4, 6}, {2, 3}).dilation(2).padding(1).stride(2)));
  show("gelu+", nn::GELU(nn::GELUOptions().approximate("tanh")));
  show("groupnorm+", nn::GroupNorm(nn::GroupNormOptions(3, 6).eps(0.01).affine(false)));
  show("hardshrink+", nn::Hardshrink(nn::HardshrinkOptions(0.25)));
  show("hardtanh+", nn::Hardtanh(nn::HardtanhOptions().min_val(-2).max_val(3).inplace(true)));
  show("instancenorm2d+", nn::InstanceNorm2d(nn::InstanceNorm2dOptions(8).eps(0.01).momentum(0.2).affine(true).track_running_stats(true)));
  show("leakyrelu+", nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.2).inplace(true)));
  show("localnorm+", nn::LocalResponseNorm(nn::LocalResponseNormOptions(3).alpha(0.1).beta(0.5).k(2)));
  show("lppool2d+", nn::LPPool2d(nn::LPPool2dOptions(2, {2, 3}).stride(1).ceil_mode(true)));
  show("maxpool2d+", nn::MaxPool2d(nn::MaxPool2dOptions({3, 2}).stride(1).padding(1).dilation(2).ceil_mode(true)));
  show("pairwise+", nn::PairwiseDistance(nn::PairwiseDistanceOptions().p(1).eps(0.1).keepdim(true)));
  show("prelu+", nn::PReLU(nn::PReLUOptions().num_parameters(3).init(0.1)));
  show("relu+", nn::ReLU(nn::ReLUOptions(true)));
  show("relu6+", nn::ReLU6(nn::ReLU6Options(true)));
  show("rrelu+", nn::RReLU(nn::RReLUOptions().lower(0.1).upper(0.2).inplace(true)));
  show("selu+", nn::SELU(nn::SELUOptions(true)));
  show("similar+", nn::CosineSimilarity(nn::CosineSimilarityOptions().dim(0).eps(0.1)));
  show("softplus+", nn::Softplus(nn::SoftplusOptions().beta(2).threshold(10)));
  show("threshold+", nn::Threshold(nn::ThresholdOptions(0.1, 2).inplace(true)));
  show("upsample+", nn::Upsample(nn::UpsampleOptions().size(std::vector<int64_t>{4, 6}).mode(torch::kBilinear).align_corners(true)));
  show("upsample++", nn::Upsample(nn::UpsampleOptions().scale_factor(std::vector<double>{2, 3})));
  show("layernorm", nn::LayerNorm(nn::LayerNormOptions({32, 10})));
  show("linear", nn::Linear(784, 10));
  show("embed", nn::Embedding(1000, 64));
  show("attention", nn::MultiheadAttention(16, 2));
  show("lstm", nn::LSTM(nn::LSTMOptions(10, 20)));
  show("gru", nn::GRU(nn::GRUOptions(10, 20)));
  show("rnn", nn::RNN(nn::RNNOptions(10, 20)));
  show("lstm+", nn::LSTM(nn::LSTMOptions(4, 3).num_layers(2).bias(false).batch_first(true).dropout(0.5).bidirectional(true)));
  show("embed+", nn::Embedding(nn::EmbeddingOptions(10, 4).padding_idx(1).max_norm(2).norm_type(1).scale_grad_by_freq(true).sparse(true)));
  return 0;
}
