// hg_fmax_f32: latency 1 cycle, one operation per cycle (rtl/float_units.h)
module hg_fmax_f32 (
  input wire clk,
  input wire [31:0] a,
  input wire [31:0] b,
  output wire [31:0] y
);
  wire a_sign = a[31];
  wire b_sign = b[31];
  wire [30:0] a_mag = a[30:0];
  wire [30:0] b_mag = b[30:0];
  wire b_zero = ~(|b_mag);
  wire a_zero = ~(|a_mag);
  wire a_lt_b = ~(a_zero & b_zero) & ((a_sign & ~b_sign) | (~a_sign & ~b_sign & (a_mag < b_mag)) | (a_sign & b_sign & (a_mag > b_mag)));
  wire [22:0] b_frac = b[22:0];
  wire [7:0] b_exp = b[30:23];
  wire b_nan = (&b_exp) & (|b_frac);
  wire [22:0] a_frac = a[22:0];
  wire [7:0] a_exp = a[30:23];
  wire a_nan = (&a_exp) & (|a_frac);
  wire [31:0] result = (a_nan | b_nan) ? 32'h7fc00000 : a_lt_b ? b : a;
  reg [31:0] result_p1;
  assign y = result_p1;
  always @(posedge clk) begin
    result_p1 <= result;
  end
endmodule
