// hg_fmul_f32: latency 3 cycles, one operation per cycle (rtl/float_units.h)
module hg_fmul_f32 (
  input wire clk,
  input wire [31:0] a,
  input wire [31:0] b,
  output wire [31:0] y
);
  wire b_sign = b[31];
  wire a_sign = a[31];
  wire sign = a_sign ^ b_sign;
  wire [22:0] b_frac = b[22:0];
  wire [7:0] b_exp = b[30:23];
  wire [23:0] b_sig = {|b_exp, b_frac};
  wire [22:0] a_frac = a[22:0];
  wire [7:0] a_exp = a[30:23];
  wire [23:0] a_sig = {|a_exp, a_frac};
  wire [47:0] product = {24'd0, a_sig} * {24'd0, b_sig};
  wire [7:0] b_eexp = {b_exp[7:1], b_exp[0] | ~(|b_exp)};
  wire [7:0] a_eexp = {a_exp[7:1], a_exp[0] | ~(|a_exp)};
  wire [9:0] product_top = {2'd0, a_eexp} + {2'd0, b_eexp} + 10'h382;
  wire special = (&a_exp) | (&b_exp);
  wire b_inf = (&b_exp) & ~(|b_frac);
  wire [30:0] a_mag = a[30:0];
  wire a_zero = ~(|a_mag);
  wire [30:0] b_mag = b[30:0];
  wire b_zero = ~(|b_mag);
  wire a_inf = (&a_exp) & ~(|a_frac);
  wire a_nan = (&a_exp) & (|a_frac);
  wire b_nan = (&b_exp) & (|b_frac);
  wire [31:0] special_value = (a_nan | b_nan) ? (a_nan ? {a_sign, {8{1'b1}}, 1'b1, a_frac[21:0]} : {b_sign, {8{1'b1}}, 1'b1, b_frac[21:0]}) : ((a_inf & b_zero) | (a_zero & b_inf)) ? 32'hffc00000 : {sign, {8{1'b1}}, 23'h0};
  reg [47:0] product_p1;
  wire [31:0] norm_lz_c1 = {~product_p1[47], ~product_p1[45], ~product_p1[43], ~product_p1[41], ~product_p1[39], ~product_p1[37], ~product_p1[35], ~product_p1[33], ~product_p1[31], ~product_p1[29], ~product_p1[27], ~product_p1[25], ~product_p1[23], ~product_p1[21], ~product_p1[19], ~product_p1[17], ~product_p1[15], ~product_p1[13], ~product_p1[11], ~product_p1[9], ~product_p1[7], ~product_p1[5], ~product_p1[3], ~product_p1[1], ~1'b1, ~1'b0, ~1'b0, ~1'b0, ~1'b0, ~1'b0, ~1'b0, ~1'b0};
  wire [31:0] norm_lz_v1 = {(product_p1[47] | product_p1[46]), (product_p1[45] | product_p1[44]), (product_p1[43] | product_p1[42]), (product_p1[41] | product_p1[40]), (product_p1[39] | product_p1[38]), (product_p1[37] | product_p1[36]), (product_p1[35] | product_p1[34]), (product_p1[33] | product_p1[32]), (product_p1[31] | product_p1[30]), (product_p1[29] | product_p1[28]), (product_p1[27] | product_p1[26]), (product_p1[25] | product_p1[24]), (product_p1[23] | product_p1[22]), (product_p1[21] | product_p1[20]), (product_p1[19] | product_p1[18]), (product_p1[17] | product_p1[16]), (product_p1[15] | product_p1[14]), (product_p1[13] | product_p1[12]), (product_p1[11] | product_p1[10]), (product_p1[9] | product_p1[8]), (product_p1[7] | product_p1[6]), (product_p1[5] | product_p1[4]), (product_p1[3] | product_p1[2]), (product_p1[1] | product_p1[0]), (1'b1 | 1'b0), (1'b0 | 1'b0), (1'b0 | 1'b0), (1'b0 | 1'b0), (1'b0 | 1'b0), (1'b0 | 1'b0), (1'b0 | 1'b0), (1'b0 | 1'b0)};
  wire [31:0] norm_lz_c2 = {(norm_lz_v1[31] ? {1'b0, norm_lz_c1[31]} : {1'b1, norm_lz_c1[30]}), (norm_lz_v1[29] ? {1'b0, norm_lz_c1[29]} : {1'b1, norm_lz_c1[28]}), (norm_lz_v1[27] ? {1'b0, norm_lz_c1[27]} : {1'b1, norm_lz_c1[26]}), (norm_lz_v1[25] ? {1'b0, norm_lz_c1[25]} : {1'b1, norm_lz_c1[24]}), (norm_lz_v1[23] ? {1'b0, norm_lz_c1[23]} : {1'b1, norm_lz_c1[22]}), (norm_lz_v1[21] ? {1'b0, norm_lz_c1[21]} : {1'b1, norm_lz_c1[20]}), (norm_lz_v1[19] ? {1'b0, norm_lz_c1[19]} : {1'b1, norm_lz_c1[18]}), (norm_lz_v1[17] ? {1'b0, norm_lz_c1[17]} : {1'b1, norm_lz_c1[16]}), (norm_lz_v1[15] ? {1'b0, norm_lz_c1[15]} : {1'b1, norm_lz_c1[14]}), (norm_lz_v1[13] ? {1'b0, norm_lz_c1[13]} : {1'b1, norm_lz_c1[12]}), (norm_lz_v1[11] ? {1'b0, norm_lz_c1[11]} : {1'b1, norm_lz_c1[10]}), (norm_lz_v1[9] ? {1'b0, norm_lz_c1[9]} : {1'b1, norm_lz_c1[8]}), (norm_lz_v1[7] ? {1'b0, norm_lz_c1[7]} : {1'b1, norm_lz_c1[6]}), (norm_lz_v1[5] ? {1'b0, norm_lz_c1[5]} : {1'b1, norm_lz_c1[4]}), (norm_lz_v1[3] ? {1'b0, norm_lz_c1[3]} : {1'b1, norm_lz_c1[2]}), (norm_lz_v1[1] ? {1'b0, norm_lz_c1[1]} : {1'b1, norm_lz_c1[0]})};
  wire [15:0] norm_lz_v2 = {(norm_lz_v1[31] | norm_lz_v1[30]), (norm_lz_v1[29] | norm_lz_v1[28]), (norm_lz_v1[27] | norm_lz_v1[26]), (norm_lz_v1[25] | norm_lz_v1[24]), (norm_lz_v1[23] | norm_lz_v1[22]), (norm_lz_v1[21] | norm_lz_v1[20]), (norm_lz_v1[19] | norm_lz_v1[18]), (norm_lz_v1[17] | norm_lz_v1[16]), (norm_lz_v1[15] | norm_lz_v1[14]), (norm_lz_v1[13] | norm_lz_v1[12]), (norm_lz_v1[11] | norm_lz_v1[10]), (norm_lz_v1[9] | norm_lz_v1[8]), (norm_lz_v1[7] | norm_lz_v1[6]), (norm_lz_v1[5] | norm_lz_v1[4]), (norm_lz_v1[3] | norm_lz_v1[2]), (norm_lz_v1[1] | norm_lz_v1[0])};
  wire [23:0] norm_lz_c3 = {(norm_lz_v2[15] ? {1'b0, norm_lz_c2[31:30]} : {1'b1, norm_lz_c2[29:28]}), (norm_lz_v2[13] ? {1'b0, norm_lz_c2[27:26]} : {1'b1, norm_lz_c2[25:24]}), (norm_lz_v2[11] ? {1'b0, norm_lz_c2[23:22]} : {1'b1, norm_lz_c2[21:20]}), (norm_lz_v2[9] ? {1'b0, norm_lz_c2[19:18]} : {1'b1, norm_lz_c2[17:16]}), (norm_lz_v2[7] ? {1'b0, norm_lz_c2[15:14]} : {1'b1, norm_lz_c2[13:12]}), (norm_lz_v2[5] ? {1'b0, norm_lz_c2[11:10]} : {1'b1, norm_lz_c2[9:8]}), (norm_lz_v2[3] ? {1'b0, norm_lz_c2[7:6]} : {1'b1, norm_lz_c2[5:4]}), (norm_lz_v2[1] ? {1'b0, norm_lz_c2[3:2]} : {1'b1, norm_lz_c2[1:0]})};
  wire [7:0] norm_lz_v3 = {(norm_lz_v2[15] | norm_lz_v2[14]), (norm_lz_v2[13] | norm_lz_v2[12]), (norm_lz_v2[11] | norm_lz_v2[10]), (norm_lz_v2[9] | norm_lz_v2[8]), (norm_lz_v2[7] | norm_lz_v2[6]), (norm_lz_v2[5] | norm_lz_v2[4]), (norm_lz_v2[3] | norm_lz_v2[2]), (norm_lz_v2[1] | norm_lz_v2[0])};
  wire [15:0] norm_lz_c4 = {(norm_lz_v3[7] ? {1'b0, norm_lz_c3[23:21]} : {1'b1, norm_lz_c3[20:18]}), (norm_lz_v3[5] ? {1'b0, norm_lz_c3[17:15]} : {1'b1, norm_lz_c3[14:12]}), (norm_lz_v3[3] ? {1'b0, norm_lz_c3[11:9]} : {1'b1, norm_lz_c3[8:6]}), (norm_lz_v3[1] ? {1'b0, norm_lz_c3[5:3]} : {1'b1, norm_lz_c3[2:0]})};
  wire [3:0] norm_lz_v4 = {(norm_lz_v3[7] | norm_lz_v3[6]), (norm_lz_v3[5] | norm_lz_v3[4]), (norm_lz_v3[3] | norm_lz_v3[2]), (norm_lz_v3[1] | norm_lz_v3[0])};
  wire [9:0] norm_lz_c5 = {(norm_lz_v4[3] ? {1'b0, norm_lz_c4[15:12]} : {1'b1, norm_lz_c4[11:8]}), (norm_lz_v4[1] ? {1'b0, norm_lz_c4[7:4]} : {1'b1, norm_lz_c4[3:0]})};
  wire [1:0] norm_lz_v5 = {(norm_lz_v4[3] | norm_lz_v4[2]), (norm_lz_v4[1] | norm_lz_v4[0])};
  wire [5:0] norm_lz_c6 = {(norm_lz_v5[1] ? {1'b0, norm_lz_c5[9:5]} : {1'b1, norm_lz_c5[4:0]})};
  reg [9:0] product_top_p1;
  wire [9:0] norm_after = product_top_p1 - {4'd0, norm_lz_c6};
  wire norm_normal = ~norm_after[9] & (|norm_after) & (|product_p1);
  wire [9:0] norm_top_m1 = product_top_p1 - 10'h1;
  wire [5:0] norm_left = norm_normal ? norm_lz_c6 : ((~product_top_p1[9] & (|product_top_p1)) ? norm_top_m1[5:0] : 6'd0);
  wire [47:0] norm_shl = product_p1 << norm_left;
  wire [9:0] norm_field = norm_normal ? norm_after : 10'h0;
  wire [9:0] norm_right = 10'h1 - product_top_p1;
  wire [24:0] norm_window = product_p1[47:23];
  wire [4:0] norm_amount = (norm_right >= 10'h19) ? 5'd25 : norm_right[4:0];
  wire [24:0] norm_shr = norm_window >> norm_amount;
  wire norm_lost = |(norm_window & ~({25{1'b1}} << norm_amount));
  wire [24:0] norm_sig = (~product_top_p1[9] & (|product_top_p1)) ? norm_shl[47:23] : norm_shr;
  wire norm_sticky = ((~product_top_p1[9] & (|product_top_p1)) ? (|norm_shl[22:0]) : (norm_lost | (|product_p1[22:0])));
  reg sign_p1;
  reg sign_p2;
  reg [24:0] norm_sig_p2;
  reg [9:0] norm_field_p2;
  reg norm_sticky_p2;
  wire round_inc = norm_sig_p2[0] & (norm_sticky_p2 | norm_sig_p2[1]);
  wire [30:0] round_packed = {norm_field_p2[7:0], norm_sig_p2[23:1]} + {30'd0, round_inc};
  wire [31:0] round_rounded = (norm_field_p2 >= 10'hff) ? {sign_p2, {8{1'b1}}, 23'h0} : {sign_p2, round_packed};
  reg [31:0] special_value_p1;
  reg [31:0] special_value_p2;
  reg special_p1;
  reg special_p2;
  wire [31:0] result = special_p2 ? special_value_p2 : round_rounded;
  reg [31:0] result_p3;
  assign y = result_p3;
  always @(posedge clk) begin
    product_p1 <= product;
    product_top_p1 <= product_top;
    sign_p1 <= sign;
    sign_p2 <= sign_p1;
    norm_sig_p2 <= norm_sig;
    norm_field_p2 <= norm_field;
    norm_sticky_p2 <= norm_sticky;
    special_value_p1 <= special_value;
    special_value_p2 <= special_value_p1;
    special_p1 <= special;
    special_p2 <= special_p1;
    result_p3 <= result;
  end
  wire unused_bits = &{1'b0, norm_lz_v5[0], norm_top_m1[9:6], norm_sig_p2[24]};
endmodule
