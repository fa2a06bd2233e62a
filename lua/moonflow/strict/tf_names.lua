-- tf_names.lua — the public names of TensorFlow 2's namespaces that users
-- reach for (from tf.__all__ and the API reference of TF 2.15), so that a
-- name moonflow lacks is told apart from a typo: `tf.nn.elu` where
-- moonflow has no elu says "moonflow has no tf.nn.elu yet", `tf.nn.elux`
-- says "no attribute" with the closest name. Data only; strict/init.lua
-- reads it.

local function set(text)
  local s = {}
  for name in text:gmatch("[%w_]+") do s[name] = true end
  return s
end

return {
  tf = set([[
    Assert Module Operation RaggedTensor RaggedTensorSpec SparseTensor SparseTensorSpec Tensor TensorArray
    TensorArraySpec TensorShape TensorSpec TypeSpec UnconnectedGradients Variable VariableAggregation
    VariableSynchronization DType GradientTape Graph IndexedSlices IndexedSlicesSpec OptionalSpec
    CriticalSection DeviceSpec RegisterGradient abs acos acosh add add_n approx_top_k argmax argmin
    argsort as_dtype as_string asin asinh assert_equal assert_greater assert_less assert_rank atan atan2
    atanh batch_to_space bitcast boolean_mask broadcast_dynamic_shape broadcast_static_shape broadcast_to
    case cast clip_by_global_norm clip_by_norm clip_by_value complex concat cond constant
    constant_initializer control_dependencies conv conv2d_backprop_filter_v2 conv2d_backprop_input_v2
    convert_to_tensor cos cosh cumsum custom_gradient device divide dynamic_partition dynamic_stitch
    edit_distance eig eigvals einsum ensure_shape equal executing_eagerly exp expand_dims extract_volume_patches
    eye fill fingerprint floor foldl foldr function gather gather_nd get_current_name_scope get_logger
    get_static_value grad_pass_through gradients greater greater_equal group guarantee_const hessians
    histogram_fixed_width histogram_fixed_width_bins identity identity_n import_graph_def init_scope
    inside_function is_symbolic_tensor is_tensor less less_equal linspace load_library load_op_library
    logical_and logical_not logical_or make_ndarray make_tensor_proto map_fn matmul matrix_square_root
    maximum meshgrid minimum mod multiply name_scope negative no_gradient no_op nondifferentiable_batch_function
    norm not_equal numpy_function one_hot ones ones_initializer ones_like pad parallel_stack pow print
    py_function random_index_shuffle random_normal_initializer random_uniform_initializer range rank
    realdiv recompute_grad reduce_all reduce_any reduce_logsumexp reduce_max reduce_mean reduce_min
    reduce_prod reduce_sum register_tensor_conversion_function repeat required_space_to_batch_paddings
    reshape reverse reverse_sequence roll round saturate_cast scalar_mul scan scatter_nd searchsorted
    sequence_mask shape shape_n sigmoid sign sin sinh size slice sort space_to_batch space_to_batch_nd split
    sqrt square squeeze stack stop_gradient strided_slice subtract switch_case tan tanh tensor_scatter_nd_add
    tensor_scatter_nd_max tensor_scatter_nd_min tensor_scatter_nd_sub tensor_scatter_nd_update
    tensordot tile timestamp transpose truediv truncatediv truncatemod tuple type_spec_from_value
    unique unique_with_counts unravel_index unstack variable_creator_scope vectorized_map where
    while_loop zeros zeros_initializer zeros_like
    bfloat16 bool complex128 complex64 double float16 float32 float64 half int16 int32 int64 int8 qint16
    qint32 qint8 quint16 quint8 resource string uint16 uint32 uint64 uint8 variant newaxis
    audio autodiff autograph bitwise compat config data debugging distribute dtypes errors estimator
    experimental feature_column graph_util image io keras linalg lite lookup math mlir nest nn
    quantization queue ragged random raw_ops saved_model sets signal sparse strings summary
    sysconfig test tpu train types version xla]]),
  ["tf.nn"] = set([[
    all_candidate_sampler atrous_conv2d atrous_conv2d_transpose avg_pool avg_pool1d avg_pool2d avg_pool3d
    batch_norm_with_global_normalization batch_normalization bias_add collapse_repeated compute_accidental_hits
    compute_average_loss conv1d conv1d_transpose conv2d conv2d_transpose conv3d conv3d_transpose
    conv_transpose convolution crelu ctc_beam_search_decoder ctc_greedy_decoder ctc_loss ctc_unique_labels
    depth_to_space depthwise_conv2d depthwise_conv2d_backprop_filter depthwise_conv2d_backprop_input
    dilation2d dropout elu embedding_lookup embedding_lookup_sparse erosion2d experimental
    fixed_unigram_candidate_sampler fractional_avg_pool fractional_max_pool gelu in_top_k isotonic_regression
    l2_loss l2_normalize leaky_relu learned_unigram_candidate_sampler local_response_normalization log_poisson_loss
    log_softmax lrn max_pool max_pool1d max_pool2d max_pool3d max_pool_with_argmax moments nce_loss
    normalize_moments pool relu relu6 safe_embedding_lookup_sparse sampled_softmax_loss scale_regularization_loss
    selu separable_conv2d sigmoid sigmoid_cross_entropy_with_logits silu softmax softmax_cross_entropy_with_logits
    softplus softsign space_to_batch space_to_depth sparse_softmax_cross_entropy_with_logits
    sufficient_statistics swish tanh top_k weighted_cross_entropy_with_logits weighted_moments
    with_space_to_batch zero_fraction]]),
  ["tf.math"] = set([[
    abs accumulate_n acos acosh add add_n angle approx_max_k approx_min_k argmax argmin asin asinh atan atan2
    atanh bessel_i0 bessel_i0e bessel_i1 bessel_i1e betainc bincount ceil confusion_matrix conj cos cosh
    count_nonzero cumprod cumsum cumulative_logsumexp digamma divide divide_no_nan equal erf erfc erfcinv
    erfinv exp expm1 floor floordiv floormod greater greater_equal igamma igammac imag in_top_k invert_permutation
    is_finite is_inf is_nan is_non_decreasing is_strictly_increasing l2_normalize lbeta less less_equal lgamma
    log log1p log_sigmoid log_softmax logical_and logical_not logical_or logical_xor maximum minimum mod
    multiply multiply_no_nan ndtri negative nextafter not_equal polygamma polyval pow real reciprocal
    reciprocal_no_nan reduce_all reduce_any reduce_euclidean_norm reduce_logsumexp reduce_max reduce_mean
    reduce_min reduce_prod reduce_std reduce_sum reduce_variance rint round rsqrt scalar_mul segment_max
    segment_mean segment_min segment_prod segment_sum sigmoid sign sin sinh sobol_sample softmax softplus
    softsign special sqrt square squared_difference subtract tan tanh top_k truediv unsorted_segment_max
    unsorted_segment_mean unsorted_segment_min unsorted_segment_prod unsorted_segment_sqrt_n
    unsorted_segment_sum xdivy xlog1py xlogy zero_fraction zeta]]),
  ["tf.math.special"] = set([[
    bessel_i0 bessel_i0e bessel_i1 bessel_i1e bessel_j0 bessel_j1 bessel_k0 bessel_k0e bessel_k1 bessel_k1e
    bessel_y0 bessel_y1 dawsn expint fresnel_cos fresnel_sin spence]]),
  ["tf.linalg"] = set([[
    LinearOperator adjoint band_part banded_triangular_solve cholesky cholesky_solve cross det diag diag_part
    eig eigh eigh_tridiagonal eigvals eigvalsh einsum experimental expm eye global_norm inv l2_normalize
    logdet logm lstsq lu lu_matrix_inverse lu_reconstruct lu_solve matmul matrix_rank matrix_transpose
    matvec norm normalize null_space pinv qr set_diag slogdet solve sqrtm svd tensor_diag tensor_diag_part
    tensordot trace transpose triangular_solve tridiagonal_matmul tridiagonal_solve]]),
  ["tf.random"] = set([[
    Algorithm Generator all_candidate_sampler categorical create_rng_state experimental
    fixed_unigram_candidate_sampler fold_in gamma get_global_generator learned_unigram_candidate_sampler
    log_uniform_candidate_sampler normal poisson set_global_generator set_seed shuffle split
    stateless_binomial stateless_categorical stateless_gamma stateless_normal stateless_parameterized_truncated_normal
    stateless_poisson stateless_truncated_normal stateless_uniform truncated_normal uniform
    uniform_candidate_sampler]]),
  ["tf.strings"] = set([[
    as_string bytes_split format join length lower ngrams reduce_join regex_full_match regex_replace split
    strip substr to_hash_bucket to_hash_bucket_fast to_hash_bucket_strong to_number unicode_decode
    unicode_decode_with_offsets unicode_encode unicode_script unicode_split unicode_split_with_offsets
    unicode_transcode unsorted_segment_join upper]]),
  ["tf.image"] = set([[
    ResizeMethod adjust_brightness adjust_contrast adjust_gamma adjust_hue adjust_jpeg_quality adjust_saturation
    central_crop combined_non_max_suppression convert_image_dtype crop_and_resize crop_to_bounding_box
    decode_and_crop_jpeg decode_bmp decode_gif decode_image decode_jpeg decode_png draw_bounding_boxes
    encode_jpeg encode_png extract_glimpse extract_jpeg_shape extract_patches flip_left_right flip_up_down
    generate_bounding_box_proposals grayscale_to_rgb hsv_to_rgb image_gradients is_jpeg non_max_suppression
    non_max_suppression_overlaps non_max_suppression_padded non_max_suppression_with_scores pad_to_bounding_box
    per_image_standardization psnr random_brightness random_contrast random_crop random_flip_left_right
    random_flip_up_down random_hue random_jpeg_quality random_saturation resize resize_with_crop_or_pad
    resize_with_pad rgb_to_grayscale rgb_to_hsv rgb_to_yiq rgb_to_yuv rot90 sample_distorted_bounding_box
    sobel_edges ssim ssim_multiscale total_variation transpose yiq_to_rgb yuv_to_rgb]]),
  ["tf.keras"] = set([[
    Input Model Sequential activations applications backend callbacks constraints datasets dtensor estimator
    experimental initializers layers losses metrics mixed_precision models optimizers preprocessing
    regularizers saving utils]]),
  ["tf.keras.layers"] = set([[
    AbstractRNNCell Activation ActivityRegularization Add AdditiveAttention AlphaDropout Attention Average
    AveragePooling1D AveragePooling2D AveragePooling3D AvgPool1D AvgPool2D AvgPool3D BatchNormalization
    Bidirectional CategoryEncoding CenterCrop Concatenate Conv1D Conv1DTranspose Conv2D Conv2DTranspose
    Conv3D Conv3DTranspose ConvLSTM1D ConvLSTM2D ConvLSTM3D Convolution1D Convolution2D Convolution3D
    Cropping1D Cropping2D Cropping3D Dense DenseFeatures DepthwiseConv1D DepthwiseConv2D Discretization Dot
    Dropout ELU EinsumDense Embedding Flatten GRU GRUCell GaussianDropout GaussianNoise GlobalAveragePooling1D
    GlobalAveragePooling2D GlobalAveragePooling3D GlobalAvgPool1D GlobalAvgPool2D GlobalAvgPool3D
    GlobalMaxPool1D GlobalMaxPool2D GlobalMaxPool3D GlobalMaxPooling1D GlobalMaxPooling2D GlobalMaxPooling3D
    GroupNormalization Hashing Identity Input InputLayer InputSpec IntegerLookup LSTM LSTMCell Lambda Layer
    LayerNormalization LeakyReLU LocallyConnected1D LocallyConnected2D Masking MaxPool1D MaxPool2D MaxPool3D
    MaxPooling1D MaxPooling2D MaxPooling3D Maximum Minimum MultiHeadAttention Multiply Normalization PReLU
    Permute RNN RandomBrightness RandomContrast RandomCrop RandomFlip RandomHeight RandomRotation
    RandomTranslation RandomWidth RandomZoom ReLU RepeatVector Rescaling Reshape Resizing SeparableConv1D
    SeparableConv2D SeparableConvolution1D SeparableConvolution2D SimpleRNN SimpleRNNCell Softmax
    SpatialDropout1D SpatialDropout2D SpatialDropout3D SpectralNormalization StackedRNNCells StringLookup
    Subtract TextVectorization ThresholdedReLU TimeDistributed UnitNormalization UpSampling1D UpSampling2D
    UpSampling3D Wrapper ZeroPadding1D ZeroPadding2D ZeroPadding3D add average concatenate deserialize dot
    experimental maximum minimum multiply serialize subtract]]),
  ["tf.keras.activations"] = set([[
    deserialize elu exponential gelu get hard_sigmoid linear mish relu selu serialize sigmoid softmax
    softplus softsign swish tanh]]),
  ["tf.keras.losses"] = set([[
    BinaryCrossentropy BinaryFocalCrossentropy CategoricalCrossentropy CategoricalFocalCrossentropy
    CategoricalHinge CosineSimilarity Hinge Huber KLDivergence LogCosh Loss MeanAbsoluteError
    MeanAbsolutePercentageError MeanSquaredError MeanSquaredLogarithmicError Poisson Reduction
    SparseCategoricalCrossentropy SquaredHinge binary_crossentropy binary_focal_crossentropy
    categorical_crossentropy categorical_focal_crossentropy categorical_hinge cosine_similarity deserialize
    get hinge huber kl_divergence kld kullback_leibler_divergence log_cosh logcosh mae mape mean_absolute_error
    mean_absolute_percentage_error mean_squared_error mean_squared_logarithmic_error mse msle poisson
    serialize sparse_categorical_crossentropy squared_hinge]]),
  ["tf.keras.optimizers"] = set([[
    Adadelta Adafactor Adagrad Adam AdamW Adamax Ftrl Lion Nadam Optimizer RMSprop SGD deserialize
    experimental get legacy schedules serialize]]),
  ["tf.keras.metrics"] = set([[
    AUC Accuracy BinaryAccuracy BinaryCrossentropy BinaryIoU CategoricalAccuracy CategoricalCrossentropy
    CategoricalHinge CosineSimilarity F1Score FBetaScore FalseNegatives FalsePositives Hinge IoU
    KLDivergence LogCoshError Mean MeanAbsoluteError MeanAbsolutePercentageError MeanIoU MeanMetricWrapper
    MeanRelativeError MeanSquaredError MeanSquaredLogarithmicError MeanTensor Metric OneHotIoU OneHotMeanIoU
    Poisson Precision PrecisionAtRecall R2Score Recall RecallAtPrecision RootMeanSquaredError
    SensitivityAtSpecificity SparseCategoricalAccuracy SparseCategoricalCrossentropy
    SparseTopKCategoricalAccuracy SpecificityAtSensitivity SquaredHinge Sum TopKCategoricalAccuracy
    TrueNegatives TruePositives binary_accuracy binary_crossentropy categorical_accuracy
    categorical_crossentropy deserialize get serialize sparse_categorical_accuracy
    sparse_categorical_crossentropy sparse_top_k_categorical_accuracy top_k_categorical_accuracy]]),
  ["tf.keras.initializers"] = set([[
    Constant GlorotNormal GlorotUniform HeNormal HeUniform Identity Initializer LecunNormal LecunUniform
    Ones Orthogonal RandomNormal RandomUniform TruncatedNormal VarianceScaling Zeros constant deserialize
    get glorot_normal glorot_uniform he_normal he_uniform identity lecun_normal lecun_uniform ones
    orthogonal random_normal random_uniform serialize truncated_normal variance_scaling zeros]]),
  ["tf.keras.optimizers.schedules"] = set([[
    CosineDecay CosineDecayRestarts ExponentialDecay InverseTimeDecay LearningRateSchedule
    PiecewiseConstantDecay PolynomialDecay deserialize serialize]]),
  ["tf.keras.callbacks"] = set([[
    BackupAndRestore CSVLogger Callback CallbackList EarlyStopping History LambdaCallback
    LearningRateScheduler ModelCheckpoint ProgbarLogger ReduceLROnPlateau RemoteMonitor TensorBoard
    TerminateOnNaN]]),
  ["tf.io"] = set([[
    FixedLenFeature FixedLenSequenceFeature RaggedFeature SparseFeature TFRecordOptions TFRecordWriter
    VarLenFeature decode_and_crop_jpeg decode_base64 decode_bmp decode_compressed decode_csv decode_gif
    decode_image decode_jpeg decode_json_example decode_png decode_proto decode_raw deserialize_many_sparse
    encode_base64 encode_jpeg encode_png encode_proto extract_jpeg_shape gfile is_jpeg match_filenames_once
    matching_files parse_example parse_sequence_example parse_single_example parse_single_sequence_example
    parse_tensor read_file serialize_many_sparse serialize_sparse serialize_tensor write_file write_graph]]),
  ["tf.config"] = set([[
    LogicalDevice LogicalDeviceConfiguration PhysicalDevice experimental experimental_connect_to_cluster
    experimental_connect_to_host experimental_functions_run_eagerly experimental_run_functions_eagerly
    functions_run_eagerly get_logical_device_configuration get_soft_device_placement get_visible_devices
    list_logical_devices list_physical_devices optimizer run_functions_eagerly set_logical_device_configuration
    set_soft_device_placement set_visible_devices threading]]),
  ["tf.saved_model"] = set([[
    Asset LoadOptions SaveOptions contains_saved_model experimental load load_v2 save]]),
  ["tf.train"] = set([[
    BytesList Checkpoint CheckpointManager CheckpointOptions CheckpointView ClusterDef ClusterSpec
    Coordinator Example ExponentialMovingAverage Feature FeatureList FeatureLists Features FloatList
    Int64List JobDef SequenceExample ServerDef TrackableView checkpoints_iterator experimental
    get_checkpoint_state latest_checkpoint list_variables load_checkpoint load_variable]]),
  ["tf.data"] = set([[
    Dataset DatasetSpec FixedLengthRecordDataset Iterator IteratorSpec NumpyIterator Options TFRecordDataset
    TextLineDataset ThreadingOptions experimental]]),
  ["tf.errors"] = set([[
    AbortedError AlreadyExistsError CancelledError DataLossError DeadlineExceededError FailedPreconditionError
    InternalError InvalidArgumentError NotFoundError OpError OutOfRangeError PermissionDeniedError
    ResourceExhaustedError UnauthenticatedError UnavailableError UnimplementedError UnknownError]]),
  ["tf.autograph"] = set([[ experimental set_verbosity to_code to_graph trace ]]),
  ["tf.debugging"] = set([[
    Assert assert_all_finite assert_equal assert_greater assert_greater_equal assert_integer assert_less
    assert_less_equal assert_near assert_negative assert_non_negative assert_non_positive assert_none_equal
    assert_positive assert_proper_iterable assert_rank assert_rank_at_least assert_rank_in assert_same_float_dtype
    assert_scalar assert_shapes assert_type check_numerics disable_check_numerics disable_traceback_filtering
    enable_check_numerics enable_traceback_filtering experimental get_log_device_placement is_numeric_tensor
    is_traceback_filtering_enabled set_log_device_placement]]),
  ["tf.sparse"] = set([[
    SparseTensor add bincount concat cross cross_hashed expand_dims eye fill_empty_rows from_dense map_values
    mask maximum minimum reduce_max reduce_sum reorder reset_shape reshape retain segment_mean segment_sqrt_n
    segment_sum slice softmax sparse_dense_matmul split to_dense to_indicator transpose]]),
  ["tf.ragged"] = set([[ boolean_mask constant cross cross_hashed map_flat_values range row_splits_to_segment_ids
    segment_ids_to_row_splits stack stack_dynamic_partitions ]]),
  ["tf.signal"] = set([[ dct fft fft2d fft3d fftshift frame hamming_window hann_window idct ifft ifft2d ifft3d
    ifftshift inverse_mdct inverse_stft irfft irfft2d irfft3d kaiser_bessel_derived_window kaiser_window
    linear_to_mel_weight_matrix mdct mfccs_from_log_mel_spectrograms overlap_and_add rfft rfft2d rfft3d stft
    vorbis_window ]]),
  ["tf.dtypes"] = set([[ DType as_dtype bfloat16 bool cast complex complex128 complex64 double float16 float32
    float64 half int16 int32 int64 int8 qint16 qint32 qint8 quint16 quint8 resource saturate_cast string
    uint16 uint32 uint64 uint8 variant ]]),
}
